// Command otlpload is a bounded OTLP trace load generator and span counter (package
// bench/otlpload): `send` exports exactly -spans spans over OTLP/HTTP or OTLP/gRPC and prints
// what was acknowledged, how fast; `count` reads a lifeline journal or a Collector file
// exporter's output and says how many of the load's spans are there.
//
//	go run ./bench/otlpload/cmd/otlpload send -url http://127.0.0.1:4318/v1/traces -spans 200000 -c 8
//	go run ./bench/otlpload/cmd/otlpload send -grpc 127.0.0.1:4317 -spans 200000 -c 8
//	go run ./bench/otlpload/cmd/otlpload count -spans 200000 DIR/spans.jsonl
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/lifeline-dev/lifeline/bench/otlpload"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "send":
		send(os.Args[2:])
	case "count":
		count(os.Args[2:])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: otlpload send [-url URL | -grpc ADDR] -spans N [-batch B] [-c C] [-seed S]\n       otlpload count -spans N [-seed S] FILE…")
	os.Exit(2)
}

func send(args []string) {
	fs := flag.NewFlagSet("send", flag.ExitOnError)
	var c otlpload.Config
	fs.StringVar(&c.URL, "url", "http://127.0.0.1:4318/v1/traces", "OTLP/HTTP traces endpoint")
	fs.StringVar(&c.GRPC, "grpc", "", "OTLP/gRPC address (HOST:PORT), instead of -url")
	fs.StringVar(&c.Token, "token", "", "bearer token")
	fs.IntVar(&c.Spans, "spans", 100000, "spans to send in all")
	fs.IntVar(&c.Batch, "batch", 512, "spans a request")
	fs.IntVar(&c.Concurrency, "c", 4, "requests in flight")
	fs.Uint64Var(&c.Seed, "seed", 1, "tells this load's ids from another's")
	guard := fs.Duration("timeout", 10*time.Minute, "give up after this long (a hang guard)")
	fs.Parse(args)
	c.Deadline = time.Now().Add(*guard)
	res, err := otlpload.Send(context.Background(), c)
	json.NewEncoder(os.Stdout).Encode(res)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func count(args []string) {
	fs := flag.NewFlagSet("count", flag.ExitOnError)
	want := fs.Int("spans", 0, "the load's size: every one of its spans must be found")
	seed := fs.Uint64("seed", 1, "the load's seed")
	fs.Parse(args)
	t, err := otlpload.Count(*seed, *want, fs.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(t)
	if *want > 0 && t.Missing != 0 {
		fmt.Fprintf(os.Stderr, "otlpload: %d of the load's %d spans missing\n", t.Missing, *want)
		os.Exit(1)
	}
}
