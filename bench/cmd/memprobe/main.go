// memprobe (temporary): runtime memory classes grown by 10,100 lines.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"time"

	"clowder/bench/hostbench"
	"clowder/bench/procstat"
	"clowder/supervisor/proto"
)

func read() map[string]uint64 {
	var s []metrics.Sample
	for _, d := range metrics.All() {
		if d.Kind == metrics.KindUint64 && (len(d.Name) > 15 && d.Name[:15] == "/memory/classes") {
			s = append(s, metrics.Sample{Name: d.Name})
		}
	}
	metrics.Read(s)
	m := map[string]uint64{}
	for _, x := range s {
		m[x.Name] = x.Value.Uint64()
	}
	return m
}

func main() {
	runtime.MemProfileRate = 1
	ctx := context.Background()
	h, err := hostbench.Start(ctx, hostbench.DefaultRing)
	if err != nil {
		panic(err)
	}
	defer h.Close()
	r, err := h.Client.Spawn(ctx, proto.SpawnReq{Nonce: "x", Kind: "run", Cols: 200, Rows: 50,
		Argv: []string{"sh", "-c", `read go; i=0; while [ $i -lt 10100 ]; do echo "line $i of the history, as a build prints it"; i=$((i+1)); done; echo filled; exec sleep 2147483647`}})
	if err != nil {
		panic(err)
	}
	time.Sleep(500 * time.Millisecond)
	runtime.GC()
	debug.FreeOSMemory()
	a := read()
	ra, _ := procstat.AnonRSS(os.Getpid())
	if err := h.Client.Input(ctx, proto.InputReq{Pane: r.Pane.ID, Data: []byte("\r")}); err != nil {
		panic(err)
	}
	if _, err := h.Client.Wait(ctx, proto.WaitReq{Pane: r.Pane.ID, Text: "filled", TimeoutMS: 60000}); err != nil {
		panic(err)
	}
	time.Sleep(2 * time.Second)
	if len(os.Args) > 1 {
		runtime.GC()
		debug.FreeOSMemory()
	}
	b := read()
	rb, _ := procstat.AnonRSS(os.Getpid())
	fmt.Printf("RssAnon %d -> %d: %d B/line\n", ra, rb, (rb-ra)/10000)
	f, _ := os.Create("/tmp/mem/heap.out")
	pprof.WriteHeapProfile(f)
	f.Close()
	var names []string
	for n := range b {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := int64(b[n]) - int64(a[n])
		fmt.Printf("%-50s %9d -> %9d  %+8d  %+5d B/line\n", n, a[n], b[n], d, d/10000)
	}
}
