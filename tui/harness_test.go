package tui

// This file is the test harness's two ways of running a model's Cmds:
//
//   - in order (settle, fake_test.go): each Cmd runs on the test's
//     goroutine, its message goes to Update, and the Cmds that returns
//     join the back of the queue; deterministic, and what most tests use;
//   - concurrently (program): as bubbletea does, every Cmd, and each of a
//     batch's Cmds, runs on a goroutine of its own, and their messages come
//     back to Update on one goroutine (the test's), in whatever order the
//     Cmds finish. Messages sent meanwhile (keys) reach Update before the
//     Cmds of earlier ones have answered, as typeahead does.
//
// driver runs a test over either, and bothModes runs it in each, for the
// tests where the order of Cmds and messages could matter.

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// cmdMode is how a driver runs Cmds.
type cmdMode uint8

const (
	cmdsInOrder    cmdMode = iota // one at a time, each settled before the next message
	cmdsConcurrent                // each on its own goroutine, as bubbletea does
)

var cmdModeNames = [...]string{"in-order", "concurrent"}

// String names the mode (the subtest name).
func (c cmdMode) String() string {
	if int(c) < len(cmdModeNames) {
		return cmdModeNames[c]
	}
	return "cmdMode(?)"
}

// bothModes runs f as a subtest in each mode.
func bothModes(t *testing.T, f func(t *testing.T, mode cmdMode)) {
	for _, mode := range []cmdMode{cmdsInOrder, cmdsConcurrent} {
		t.Run(mode.String(), func(t *testing.T) { f(t, mode) })
	}
}

// driver feeds messages to a model's Update and runs its Cmds in a mode.
type driver struct {
	t    *testing.T
	m    *Model
	mode cmdMode
	prog *program
}

func newDriver(t *testing.T, m *Model, mode cmdMode) *driver {
	return &driver{t: t, m: m, mode: mode, prog: newProgram(t, m)}
}

// send hands msg to Update. In order, what follows is settled at once;
// concurrently, its Cmds start and the next send does not wait for them.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	if d.mode == cmdsConcurrent {
		d.prog.deliver()
		d.prog.update(msg)
		return
	}
	_, cmd := d.m.Update(msg)
	settle(d.t, d.m, cmd)
}

// press sends one key press.
func (d *driver) press(k tea.Key) {
	d.t.Helper()
	d.send(tea.KeyPressMsg(k))
}

// typeText presses each rune as a typed key.
func (d *driver) typeText(s string) {
	d.t.Helper()
	for _, r := range s {
		d.press(tea.Key{Code: r, Text: string(r)})
	}
}

// prefix presses the default prefix (C-Space).
func (d *driver) prefix() {
	d.t.Helper()
	d.press(tea.Key{Code: tea.KeySpace, Mod: tea.ModCtrl})
}

// settle waits until every Cmd started has answered and Update has had
// every answer (in order there is nothing left by then).
func (d *driver) settle() {
	d.t.Helper()
	if d.mode == cmdsConcurrent {
		d.prog.settle()
	}
}

// program runs a model as bubbletea does: Update on one goroutine (the
// test's), every Cmd on a goroutine of its own, a batch's Cmds each on
// their own, so Cmds race exactly as they do in the real program.
//
// Every Cmd started hands back one result, nil or not, so the test's
// goroutine alone counts what is in flight (a WaitGroup's Add racing its
// Wait is what this replaced).
type program struct {
	t       *testing.T
	m       *Model
	results chan cmdResult
	pending int  // Cmds started whose result Update has not taken; the test's goroutine only
	quit    bool // a tea.QuitMsg came: the program ended, nothing more is delivered
}

// cmdResult is what one Cmd returned (nil for nothing to deliver) and
// how many Cmds it started in its place (a batch's).
type cmdResult struct {
	msg     tea.Msg
	started int
}

func newProgram(t *testing.T, m *Model) *program {
	return &program{t: t, m: m, results: make(chan cmdResult, 1024)}
}

// start runs cmd on its own goroutine; its message comes back to update.
func (p *program) start(cmd tea.Cmd) {
	if cmd != nil {
		p.pending++
		go p.run(cmd)
	}
}

// run runs cmd, and each Cmd of a batch on a goroutine of its own, and
// hands back the result. A batch's result goes back before its Cmds
// start, so theirs cannot be counted before it.
func (p *program) run(cmd tea.Cmd) {
	var r cmdResult
	var batch tea.BatchMsg
	switch msg := cmd().(type) {
	case nil:
	case tea.QuitMsg:
		r.msg = msg
	case tea.BatchMsg:
		batch = slices.DeleteFunc(msg, func(c tea.Cmd) bool { return c == nil })
		r.started = len(batch)
	default:
		if !isTeaInternal(msg) { // bubbletea's own (clipboard reads, etc.) stay there
			r.msg = msg
		}
	}
	p.results <- r
	for _, c := range batch {
		go p.run(c)
	}
}

// take accounts for one result and hands its message to Update.
func (p *program) take(r cmdResult) {
	p.pending += r.started - 1
	if r.msg != nil {
		p.update(r.msg)
	}
}

// update feeds msg to Update and starts what it returns; after a
// tea.QuitMsg, as in bubbletea, nothing more.
func (p *program) update(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok || p.quit {
		if !p.quit {
			p.m.saver.close() // as Run does once bubbletea returns; then the process ends
		}
		p.quit = true
		return
	}
	_, cmd := p.m.Update(msg)
	p.start(cmd)
}

// deliver hands Update the results that are in already, without waiting,
// as bubbletea interleaves Cmds' messages with input.
func (p *program) deliver() {
	for {
		select {
		case r := <-p.results:
			p.take(r)
		default:
			return
		}
	}
}

// settle feeds results to Update until no Cmd is in flight.
func (p *program) settle() {
	p.t.Helper()
	p.until("commands to settle", func() bool { return p.pending == 0 })
}

// until feeds results to Update (Cmds running concurrently, as in
// bubbletea) until cond holds, failing after a generous deadline.
func (p *program) until(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case r := <-p.results:
			p.take(r)
		case <-deadline:
			p.t.Fatalf("%s: not within 30s", what)
		}
	}
}
