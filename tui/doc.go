// Package tui is the TUI, a bubbletea model run by its own event loop:
// layout, focus, keybindings, prompts and rendering of the host's screen
// frames. It never parses terminal output.
//
// # Data model
//
// A layout.Tree of pane ids (focus and zoom included) and, per pane, a
// cell grid kept up to date from the host's screen frames, its modes, its
// subscription, the PTY master dup the host passed and its input queue.
// Only Update changes the model; Cmds (conn.go) do host I/O and return
// messages. The one exception is input: keys are encoded for the pane's
// modes and handed to the pane's one input queue (inputqueue.go), which
// writes them to its master from Update when it can at once, else from its
// drainer, so they keep their order (never one Cmd per key) and reach the
// pane at once.
//
// # Components
//
// The root Model composes three components in the style of bubbles, each
// with its own model, Update and View and no access to the root: the
// prompt (prompt.go), copy mode (copymode.go) and the help overlay
// (helpoverlay.go). The root routes keys to the one that is active (help,
// then a prompt, then the prefix keymap, then copy mode, else the focused
// pane) and acts on the result message its Update returns (promptDoneMsg,
// copyDoneMsg, copyFetchMsg, ...) within the same Update, not through a
// Cmd: a key typed right after must find the result applied (the next
// prompt open, the closed pane gone). The root's sides are prompts.go and
// copying.go. Components are values: Update returns a new one.
//
// # Goroutines and loops (docs/adr/0002)
//
// Owner, what it may touch, and how it ends:
//
//   - The event loop (eventLoop.run in loop.go, on Run's goroutine; not
//     bubbletea's Program, whose renderer ticker woke the TUI every
//     second): it runs Update for everything handed over to it. Update,
//     and so the Model, belongs to whoever holds the loop's turn (a
//     mutex), one at a time: the loop, or, when the loop is idle and
//     nothing handed over waits, the input reader for a key it decoded
//     and the client's reader for a small frame due now (no goroutine hop
//     for a keystroke or its echo, issue 12). It ends on a tea.QuitMsg
//     (detach, kill-all, a signal), when Run's context ends, or when a
//     Cmd panics; it waits for the turn, and nothing runs Update after.
//   - The input reader (eventLoop.readInput): on Linux one goroutine
//     whose read waits in the runtime's poller (pollinput_linux.go) and
//     that decodes what it read with ultraviolet's decoder
//     (inputscan.go); elsewhere ultraviolet's TerminalReader (the decoder
//     bubbletea wraps, two goroutines). It decodes keys, mouse, pastes
//     and focus into messages, and on Linux runs Update with each itself
//     when the loop is idle (eventLoop.sendInput), else hands it to the
//     loop. The loop's end cancels its read and waits for it.
//   - Cmds (the loop runs each on a goroutine of its own, a batch's Cmds
//     each on their own, so they race, as bubbletea does): host calls
//     (conn.go), clipboard tools, timers. Each reads only what Update copied into its closure,
//     returns one message and never writes the model; host calls are
//     bounded by callTimeout or killTimeout, clipboard tools by
//     clipTimeout. One of them is the mailbox's wait, one at a time, which
//     returns when the mailbox signals or is closed, at most once per
//     display refresh (pace.go).
//   - Host frames: no goroutine of the TUI's own. When a subscription is
//     answered, Update hands its stream to the mailbox (mailbox.follow,
//     client.Subscription.Hand), and from then on the client's reader
//     goroutine, which decodes each frame off the socket, files frames,
//     events and the stream's end into the mailbox itself (mutex; frames
//     merged per pane) and signals a capacity-1 channel that the event
//     loop selects on. After filing a push, outside the subscription's
//     lock (client.AfterPusher), it delivers a small frame due now itself
//     if the loop is idle (eventLoop.deliverNow): Update applies and
//     draws the echo on the reader. Events, stream ends and big or paced
//     frames stay the loop's (an event may close a stream, which waits
//     for this reader); otherwise it never touches the model. Update closes a pane's
//     stream when it subscribes again or the pane leaves, Model.Close
//     closes them all once the program has ended, and the host may end one
//     (a subscriber that fell behind, a lost connection); each files its
//     end once. A stream that cannot hand over (the tests' fakes) gets a
//     watcher goroutine (mailbox.watch) that ends when its channel closes.
//   - Input queues: one drainer per pane queue (inputqueue.go, started by
//     newInputQueue from Update, for a pane or a spawn in flight) delivers
//     what Update could not write at once, in order, to the master or
//     through the host. The queue is shared under its mutex; Update's own
//     write and the drainer's never overlap. It ends when its queue is
//     closed: by Update when the pane leaves or is replaced (or a spawn's
//     queue is merged into one the pane already had), by Model.Close once
//     the program has ended; a write under way ends within drainDeadline.
//   - Drawing: terminal.loop (terminal.go, started by openTerminal in Run)
//     draws the newest frame Update handed over (terminal.show, capacity
//     1, newest wins, the changed rows of both merged), paced (pace.go),
//     and the terminal commands queued between frames. It encodes the
//     changed rows of the model's canvas (outer.go) under the terminal's
//     canvasMu, which Update holds while it paints (repaint.go), writes
//     them after, and never sees the rest of the model. Drawing is off the event loop so that a
//     slow terminal never holds up keys to the panes, except a small frame
//     (an echo) whose turn has come while no draw is under way: Update's
//     goroutine writes that one itself (terminal.drawNow, one goroutine
//     hop fewer per keystroke; the terminal's drawMu keeps one drawer at a
//     time). Run ends it with terminal.close after the loop ends, and
//     waits for it.
//   - Signals: terminal.followSize (SIGWINCH, as a WindowSizeMsg) and
//     forwardSignals (SIGHUP, SIGTERM, SIGINT, as signalMsg) send to the
//     loop; runLoop starts them and closes their done channel when it
//     returns.
//   - The host connection's reader belongs to the client (Host); Run
//     closes the Host when it returns, which ends it. When the connection
//     is lost, a Cmd dials again and swaps the new connection into the
//     same Host, and another hands the held masters back (escrow.go);
//     both are bounded by callTimeout.
//
// Frames coalesce in the mailbox, so a flood in one pane
// is one Update and one render per display refresh, and the first frame
// after a quiet spell (an echo) goes at once, whatever other panes do
// (pacing is per pane); nothing ticks while idle (a
// status message arms one timer to fade it, a repeatable action one to end
// its window).
// `clowder attach` (attach.go) is a separate, smaller loop: see its file
// comment.
//
// Tests run Cmds in two modes (harness_test.go): in order on the test's
// goroutine, and concurrently, each Cmd on a goroutine of its own with
// their messages fed back to Update on one goroutine, as bubbletea does.
//
// # Files
//
// model.go (state), update*.go (message handlers; update_events.go keeps
// the event subscription open), actions.go and keymap.go (the prefix
// keymap), prompt.go and prompts.go, copymode.go and copying.go,
// helpoverlay.go, mouse.go, input.go and keyconv.go (key encoding),
// inputqueue.go (ordered delivery per pane), mailbox.go, render.go and
// view.go (drawing), repaint.go (only the rows frames changed),
// terminal.go (the outer terminal), outer.go (the bytes that change it:
// the damaged rows' changed cells) and sgr.go (their pens), pace.go (one frame per display
// refresh), loop.go (the event loop), layoutfile.go
// (layout.json), conn.go and host.go (host I/O), escrow.go (reconnecting, and handing
// the masters back after a lost host), theme.go, clipboard.go
// (copy, paste, clowder's buffer), run.go, attach.go and
// attach_session.go (`clowder attach`).
//
// # Boundaries
//
// tui may import every package of ours but cmd. It is the only package
// that imports bubbletea, lipgloss and bubbles.
package tui
