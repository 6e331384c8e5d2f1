package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"clowder/bench/adapter"
	"clowder/bench/latency"
	"clowder/bench/memory"
	"clowder/bench/throughput"
	"clowder/bench/tmuxbench"
)

// parseRow is one line of the throughput table; exactly one of result and
// tmux is set.
type parseRow struct {
	name   string
	bytes  int
	mbps   float64
	screen string // the final screen text
	result *throughput.Result
	tmux   *tmuxbench.ParseResult
}

// screenDiff counts the rows of r's final screen that differ from tmux's,
// or says why they cannot be compared.
func screenDiff(r, tmux parseRow, rows int) string {
	switch {
	case r.tmux != nil:
		return "–"
	case tmux.tmux == nil:
		return "no tmux run"
	case r.bytes != tmux.bytes:
		return "not compared: fed less"
	}
	a, b := screenRows(r.screen, rows), screenRows(tmux.screen, rows)
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return fmt.Sprintf("%d / %d", n, rows)
}

// screenRows splits a screen dump into exactly rows rows without trailing
// blanks (NUL counts as blank, as vt10x fills with it).
func screenRows(screen string, rows int) []string {
	out := make([]string, rows)
	for i, line := range strings.Split(screen, "\n") {
		if i < rows {
			out[i] = strings.TrimRight(line, " \x00")
		}
	}
	return out
}

// cpuRate is MB per CPU second, 0 if unknown.
func (r parseRow) cpuRate() float64 {
	if r.tmux != nil {
		return r.tmux.MBperCPUs()
	}
	return r.result.MBperCPUs()
}

func rate(v float64) string {
	if v <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", v)
}

func ratio(v, base float64) string {
	if v <= 0 || base <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2fx", v/base)
}

// latencyRow is one line of the keystroke table.
type latencyRow struct {
	name string
	s    latency.Samples
}

// memRow is one line of the memory table.
type memRow struct {
	name   string
	result memory.Result
}

func printEnvironment(w io.Writer) {
	fmt.Fprintf(w, "Machine: %s, %d CPUs, %s %s/%s, load average %s at the end of the parse runs\n\n",
		cpuModel(), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, loadAverage())
}

// loadAverage is the 1-minute load average: a busy machine explains slow wall
// clock figures (the MB/CPU-s column is steadier).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	one, _, _ := strings.Cut(string(b), " ")
	return one
}

func printParse(w io.Writer, c config, rows []parseRow) {
	fmt.Fprintf(w, "### Parse throughput: %dx%d, scrollback %d, %d KiB writes, streamgen seed %d\n\n",
		c.cols, c.rows, c.scrollback, throughput.ChunkSize>>10, c.seed)
	fmt.Fprintln(w, "| emulator | bytes fed | MB/s | vs tmux | MB/CPU-s | vs tmux | allocs/byte | alloc bytes/byte | final rows ≠ tmux |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	var tmux, tmuxCPU float64
	var tmuxRow parseRow
	for _, r := range rows {
		if r.tmux != nil {
			tmux, tmuxCPU, tmuxRow = r.mbps, r.cpuRate(), r
		}
	}
	for _, r := range rows {
		allocs, allocBytes := "–", "–"
		if r.result != nil {
			allocs = fmt.Sprintf("%.3f", r.result.AllocsPerByte())
			allocBytes = fmt.Sprintf("%.2f", r.result.AllocBytesPerByte())
		}
		fmt.Fprintf(w, "| %s | %.1f MB | %.1f | %s | %s | %s | %s | %s | %s |\n", r.name, float64(r.bytes)/1e6,
			r.mbps, ratio(r.mbps, tmux), rate(r.cpuRate()), ratio(r.cpuRate(), tmuxCPU), allocs, allocBytes,
			screenDiff(r, tmuxRow, c.rows))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Final rows ≠ tmux: how many rows of the screen after the whole stream (and a CAN) differ from tmux's `capture-pane -p`, trailing blanks ignored: a sanity check that every byte was parsed, and a rough differential signal.")
	fmt.Fprintln(w)
	for _, r := range rows {
		if t := r.tmux; t != nil {
			fmt.Fprintf(w, "tmux: %.3f s from start signal until the pane title shows the end marker, minus %.3f s round-trip overhead (same run on an empty file) and %.3f s for `cat` to /dev/null = %.3f s net; the tmux server used %.3f s of CPU.\n",
				t.Raw.Seconds(), t.Overhead.Seconds(), t.Cat.Seconds(), t.Net().Seconds(), t.ServerCPU.Seconds())
		}
		if r.result != nil && r.bytes < c.mb*1e6 {
			fmt.Fprintf(w, "%s was fed only the first %.1f MB of the stream (it is slow); MB/s is a rate over the same mix, so it compares directly.\n", r.name, float64(r.bytes)/1e6)
		}
	}
	fmt.Fprintln(w)
}

func printMemory(w io.Writer, c memory.Config, rows []memRow) {
	fmt.Fprintf(w, "### Memory: %d terminals at %dx%d, each fed %d lines of %d ASCII columns (scrollback %d)\n\n",
		c.Terminals, c.Cols, c.Rows, c.Lines+c.Rows, c.Cols, c.Lines)
	fmt.Fprintln(w, "| emulator | live heap per fresh terminal | live heap per fed terminal | bytes per scrollback line | vs text bytes | growth per line over fresh |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		m := r.result
		perLine, ratio, growth := "n/a: keeps no scrollback", "–", "–"
		if m.KeepsHistory {
			perLine = fmt.Sprintf("%.0f", m.PerLine())
			ratio = fmt.Sprintf("%.2fx", m.TextRatio())
			growth = fmt.Sprintf("%.0f", m.GrowthPerLine())
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.name, size(m.Fresh), size(m.PerTerminal), perLine, ratio, growth)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Bytes per scrollback line is the whole live heap of a fed terminal (screens included) over its %d scrollback lines, and its ratio to the %d text bytes of a line; the target for vtgrid is at most 2.5x. Growth is (fed - fresh) / lines.\n\n", c.Lines, c.Cols)
}

func size(b uint64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d B", b)
}

func printLatency(w io.Writer, n int, rows []latencyRow) {
	fmt.Fprintf(w, "### Keystroke round trip: %d keys, one at a time\n\n", n)
	fmt.Fprintln(w, "| path | median | p99 |")
	fmt.Fprintln(w, "|---|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.name, ms(r.s.Median()), ms(r.s.P99()))
	}
	fmt.Fprintln(w)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }

// label names an emulator by its module and version, from the build info.
func label(e adapter.Emulator) string {
	if e.Module == "clowder" {
		return "clowder vtgrid"
	}
	name := strings.TrimPrefix(e.Module, "github.com/")
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == e.Module {
				return name + " " + d.Version
			}
		}
	}
	return name
}

func tmuxVersion() string {
	out, err := exec.Command("tmux", "-V").Output()
	if err != nil {
		return "tmux"
	}
	return strings.TrimSpace(string(out))
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
