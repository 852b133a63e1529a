package tracer

import (
	"runtime"

	"github.com/lifeline-dev/lifeline/model"
)

// pipelineBatch is how many events travel to the sink goroutine at once.
const pipelineBatch = 512

// pipeline runs a sink on its own goroutine: put copies each event (what it points to is shared,
// as the Sink contract allows) into a batch, full batches go to the sink in order, and close
// waits until the sink has taken every event. Decoding and the sink (say a Projector) then use
// two cores instead of taking turns on one.
type pipeline struct {
	sink  func(*model.Event)
	batch []model.Event
	full  chan []model.Event
	free  chan []model.Event
	done  chan struct{}
}

func newPipeline(sink func(*model.Event)) *pipeline {
	p := &pipeline{sink: sink, full: make(chan []model.Event, 32), free: make(chan []model.Event, 34), done: make(chan struct{})}
	p.batch = make([]model.Event, 0, pipelineBatch)
	go func() {
		defer close(p.done)
		for b := range p.full {
			for i := range b {
				p.sink(&b[i])
			}
			clear(b) // drop what the events point to: the sink keeps what it needs
			select {
			case p.free <- b[:0]:
			default:
			}
		}
	}()
	return p
}

func (p *pipeline) put(ev *model.Event) {
	p.batch = append(p.batch, *ev)
	if len(p.batch) == cap(p.batch) {
		p.flush()
	}
}

func (p *pipeline) flush() {
	if len(p.batch) == 0 {
		return
	}
	p.full <- p.batch
	select {
	case p.batch = <-p.free:
	default:
		p.batch = make([]model.Event, 0, pipelineBatch)
	}
}

func (p *pipeline) close() {
	p.flush()
	close(p.full)
	<-p.done
}

// pipelined reports whether Options.Pipeline can be honoured: with one CPU it only adds work.
func pipelined(opts Options) bool { return opts.Pipeline && runtime.GOMAXPROCS(0) > 1 }
