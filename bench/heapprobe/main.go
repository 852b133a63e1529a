// Command heapprobe reads logs into a lifecycle tree and writes a heap profile of what the tree
// keeps alive: a tool to see where timeline's memory goes.
//
//	go run ./bench/heapprobe -o heap.prof FILE… && go tool pprof -top -sample_index=inuse_space heap.prof
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
	flag.Parse()
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
	runtime.KeepAlive(tree)
}
