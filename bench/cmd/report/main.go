// Command report runs every benchmark of the bench module in one run and
// prints markdown tables: parse throughput of vtgrid, vt10x and x/vt next to
// tmux on the same stream, and the memory each keeps for its scrollback.
//
//	cd bench && go run ./cmd/report            # the full run (100 MB)
//	cd bench && go run ./cmd/report -mb 5      # a quick one
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"clowder/bench/adapter"
	"clowder/bench/hostbench"
	"clowder/bench/latency"
	"clowder/bench/memory"
	"clowder/bench/streamgen"
	"clowder/bench/throughput"
	"clowder/bench/tmuxbench"
)

// config is the command line.
type config struct {
	bin         string // the clowder binary the host, TUI and CLI steps run (buildOnce)
	mb, xvtMB   int
	seed        uint64
	cols, rows  int
	scrollback  int
	memTerms    int
	memLines    int
	skipTmux    bool
	skipMemory  bool
	skipPlain   bool
	skipTUI     bool
	skipCLI     bool
	skipScale   bool
	scalePanes  int
	plainMB     int
	attachedMB  int
	cliRuns     int
	coldRuns    int
	keys        int
	warmKeys    int
	idle        time.Duration
	tmuxTimeout time.Duration
}

func parseFlags() config {
	var c config
	flag.IntVar(&c.mb, "mb", 100, "stream size in MB (10^6 bytes) for the parse benchmarks")
	flag.IntVar(&c.xvtMB, "xvt-mb", 10, "MB fed to x/vt, which is slow (0: the whole stream); its MB/s is a rate, so it compares directly")
	flag.Uint64Var(&c.seed, "seed", 1, "stream seed")
	flag.IntVar(&c.cols, "cols", streamgen.DefaultCols, "terminal columns")
	flag.IntVar(&c.rows, "rows", streamgen.DefaultRows, "terminal rows")
	flag.IntVar(&c.scrollback, "scrollback", 10_000, "scrollback lines while parsing (tmux history-limit too)")
	flag.IntVar(&c.memTerms, "mem-terminals", memory.Default.Terminals, "terminals alive at once in the memory benchmark")
	flag.IntVar(&c.memLines, "mem-lines", memory.Default.Lines, "scrollback lines per terminal in the memory benchmark")
	flag.BoolVar(&c.skipTmux, "skip-tmux", false, "do not run tmux")
	flag.BoolVar(&c.skipMemory, "skip-memory", false, "do not run the memory benchmark")
	flag.BoolVar(&c.skipPlain, "skip-plain", false, "do not run the plain-text flood")
	flag.BoolVar(&c.skipTUI, "skip-tui", false, "do not run the whole stack in an outer tmux (idle, keys, attached flood)")
	flag.BoolVar(&c.skipCLI, "skip-cli", false, "do not time the CLI (ls, capture, cold start)")
	flag.BoolVar(&c.skipScale, "skip-scale", false, "do not measure a server with many idle shells (-scale-panes)")
	flag.IntVar(&c.scalePanes, "scale-panes", 100, "idle shells in one server for the scale figures (at least 2)")
	flag.IntVar(&c.plainMB, "plain-mb", 60, "plain-text flood size in MB")
	flag.IntVar(&c.attachedMB, "attached-mb", 20, "flood size in MB with the UI attached, of plain text and of the bench stream each")
	flag.IntVar(&c.cliRuns, "cli-runs", 20, "runs of each CLI command timed")
	flag.IntVar(&c.coldRuns, "cold-runs", 10, "cold starts timed")
	flag.IntVar(&c.keys, "keys", 200, "keystroke round trips to time (0: skip)")
	flag.IntVar(&c.warmKeys, "warm-keys", 1000, "keys typed untimed before each control-mode keystroke row, through both stacks")
	flag.DurationVar(&c.idle, "idle", 10*time.Second, "how long idle CPU is measured")
	flag.DurationVar(&c.tmuxTimeout, "tmux-timeout", 5*time.Minute, "give up on tmux after this long")
	flag.Parse()
	return c
}

func main() {
	c := parseFlags()
	if err := run(os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, c config) error {
	if err := checkScale(c); err != nil {
		return err
	}
	bin, cleanup, err := buildOnce(c)
	if err != nil {
		return err
	}
	defer cleanup()
	c.bin = bin
	rows, err := runParse(c)
	if err != nil {
		return err
	}
	printEnvironment(w)
	printParse(w, c, rows)
	var sum summary
	if err := runHost(w, c, tmuxRate(rows), &sum); err != nil {
		return err
	}
	if !c.skipPlain {
		if err := runPlain(w, c, &sum); err != nil {
			return err
		}
	}
	if c.keys > 0 {
		if err := runLatency(w, c); err != nil {
			return err
		}
	}
	if !c.skipTmux && !c.skipTUI {
		if err := runTUI(w, c, &sum); err != nil {
			return err
		}
	}
	if !c.skipTmux && !c.skipCLI {
		if err := runCLI(w, c, &sum); err != nil {
			return err
		}
	}
	if !c.skipScale {
		if err := runScale(w, c, &sum); err != nil {
			return err
		}
	}
	if !c.skipMemory {
		if err := runMemory(w, c); err != nil { // after runParse returned, so the stream is garbage
			return err
		}
	}
	printSummary(w, &sum)
	return nil
}

// buildOnce builds the clowder binary the host, TUI and CLI steps run,
// into a temporary directory that cleanup removes.
func buildOnce(c config) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "clowder-bench-bin-")
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	if bin, err = hostbench.BuildClowder(ctx, dir); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return bin, func() { os.RemoveAll(dir) }, nil
}

// runParse generates the stream and times tmux and each emulator on it.
func runParse(c config) ([]parseRow, error) {
	fmt.Fprintf(os.Stderr, "generating %d MB of stream (seed %d)\n", c.mb, c.seed)
	data := streamgen.Generate(c.seed, c.mb*1e6)
	var rows []parseRow
	if !c.skipTmux {
		row, err := runTmux(c, data)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	for _, e := range adapter.All() {
		feed := data
		if e.Name == "xvt" && c.xvtMB > 0 && c.xvtMB < c.mb {
			feed = data[:c.xvtMB*1e6]
		}
		fmt.Fprintf(os.Stderr, "parsing %d MB with %s\n", len(feed)/1e6, e.Name)
		r, err := throughput.Parse(e, feed, c.cols, c.rows, c.scrollback)
		if err != nil {
			return nil, err
		}
		rows = append(rows, parseRow{name: label(e), bytes: r.Bytes, mbps: r.MBps(), screen: r.Screen, result: &r})
	}
	return rows, nil
}

// tmuxRate is tmux's MB/s among the parse rows, 0 without a tmux run.
func tmuxRate(rows []parseRow) float64 {
	for _, r := range rows {
		if r.tmux != nil {
			return r.mbps
		}
	}
	return 0
}

// runLatency times keystroke echoes through tmux and through a bare PTY.
func runLatency(w io.Writer, c config) error {
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	fmt.Fprintf(os.Stderr, "timing %d keystrokes\n", c.keys)
	floor, err := latency.PTYEcho(ctx, c.keys)
	if err != nil {
		return err
	}
	rows := []latencyRow{{name: "PTY echo floor: write a byte, raw-mode `cat` writes it back", s: floor}}
	host, err := hostbench.KeyRoundTrip(ctx, c.cols, c.rows, c.keys)
	if err != nil {
		return err
	}
	rows = append(rows, latencyRow{name: "clowder: write to the passed PTY master, until the host's screen frame shows the echo", s: host})
	if !c.skipTmux {
		s, err := tmuxbench.KeyRoundTrip(ctx, c.cols, c.rows, c.keys)
		if err != nil {
			return err
		}
		rows = append(rows, latencyRow{name: tmuxVersion() + ": `send-keys -l`, poll `capture-pane -p` until the echo shows", s: s})
	}
	printLatency(w, c.keys, rows)
	return nil
}

// streamFile writes data to a file in a new temporary directory, for a
// pane or tmux to read; done removes both.
func streamFile(data []byte) (file string, done func(), err error) {
	dir, err := os.MkdirTemp("", "clowder-bench-")
	if err != nil {
		return "", nil, fmt.Errorf("temp dir for the stream: %w", err)
	}
	file = filepath.Join(dir, "stream")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		_ = os.RemoveAll(dir) // best effort: error path
		return "", nil, fmt.Errorf("write the stream: %w", err)
	}
	return file, func() { _ = os.RemoveAll(dir) }, nil
}

// runTmux writes the stream to a temporary file and times tmux on it.
func runTmux(c config, data []byte) (parseRow, error) {
	file, done, err := streamFile(data)
	if err != nil {
		return parseRow{}, err
	}
	defer done()
	fmt.Fprintf(os.Stderr, "parsing %d MB with tmux\n", len(data)/1e6)
	ctx, cancel := context.WithTimeout(context.Background(), c.tmuxTimeout)
	defer cancel()
	r, err := tmuxbench.Parse(ctx, file, c.cols, c.rows, c.scrollback)
	if err != nil {
		return parseRow{}, err
	}
	return parseRow{name: tmuxVersion(), bytes: int(r.Bytes), mbps: r.MBps(), screen: r.Screen, tmux: &r}, nil
}

func runMemory(w io.Writer, c config) error {
	mc := memory.Config{Terminals: c.memTerms, Cols: c.cols, Rows: c.rows, Lines: c.memLines}
	var rows []memRow
	for _, e := range adapter.All() {
		fmt.Fprintf(os.Stderr, "memory of %d x %s\n", mc.Terminals, e.Name)
		r, err := memory.Measure(e, mc)
		if err != nil {
			return err
		}
		rows = append(rows, memRow{name: label(e), result: r})
	}
	printMemory(w, mc, rows)
	return nil
}
