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
	at := flag.Int("at", 0, "with -check: write the profile at this event, while the input is still being read")
	flag.Parse()
	var keep any
	if *check {
		c := model.NewChecker()
		n := 0
		sink := func(ev *model.Event) {
			c.Check(ev)
			if n++; n == *at {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				fmt.Printf("live heap %d MB at event %d\n", ms.HeapAlloc>>20, n)
				writeProfile(*out)
			}
		}
		if _, err := tracer.Read(flag.Args(), tracer.Options{Pipeline: true}, sink); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		// before Finish, which adds the end-of-input findings: what the checker keeps while it streams
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("live heap %d MB after %d findings\n", ms.HeapAlloc>>20, len(c.Findings()))
		keep = c
		if *at > 0 {
			return
		}
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
	writeProfile(*out)
	runtime.KeepAlive(keep)
}

func writeProfile(path string) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
