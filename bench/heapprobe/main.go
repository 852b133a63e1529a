// Command heapprobe reads logs into a lifecycle tree (or, with -check, through the invariant
// checker) and writes a heap profile of what stays alive at the end: a tool to see where
// timeline's and check's memory goes.
//
//	go run ./bench/heapprobe -o heap.prof FILE… && go tool pprof -top -sample_index=inuse_space heap.prof
//	go run ./bench/heapprobe -check -o heap.prof FILE…
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
)

func main() {
	out := flag.String("o", "heap.prof", "heap profile to write")
	check := flag.Bool("check", false, "run the invariant checker instead of building the tree")
	flag.Parse()
	var keep any
	if *check {
		c := model.NewChecker()
		if _, err := tracer.Read(flag.Args(), tracer.Options{Pipeline: true}, c.Check); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// before Finish, which adds the end-of-input findings: what the checker keeps while it streams
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("live heap %d MB after %d findings\n", ms.HeapAlloc>>20, len(c.Findings()))
		keep = c
	} else {
		p := model.NewProjector()
		if _, err := tracer.Read(flag.Args(), tracer.Options{Pipeline: true}, p.Apply); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		tree := p.Tree()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("live heap %d MB for %d sessions\n", ms.HeapAlloc>>20, len(tree.Sessions))
		keep = tree
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.KeepAlive(keep)
}
