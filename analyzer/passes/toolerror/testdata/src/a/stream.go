package a

import (
	"context"
	"errors"
	"log"
)

// StreamMsg is a chat message of the streaming agent.
type StreamMsg struct {
	Role      string
	Content   string
	ToolCalls []StreamCall
}

// StreamCall is a tool call the model asks for.
type StreamCall struct {
	ID, Name, Args string
}

// Chunk is one streamed delta.
type Chunk struct {
	Delta     string
	ToolCalls []StreamCall
}

// StreamReader yields a streamed reply.
type StreamReader interface {
	Recv() (*Chunk, error)
	Close()
}

// ToolCallingModel is a chat model that can call tools.
type ToolCallingModel interface {
	Name() string
	Stream(ctx context.Context, msgs []StreamMsg, opts ...string) (StreamReader, error)
}

// StreamTool is a tool.
type StreamTool interface {
	Name() string
	Run(ctx context.Context, args string) (string, error)
}

// StreamEvent is what the agent reports.
type StreamEvent struct {
	Msg *StreamMsg
	Err error
}

var errEOF = errors.New("EOF")

// StreamAgent runs tools for a streaming model.
type StreamAgent struct {
	model ToolCallingModel
	tools map[string]StreamTool
	Max   int
}

// Run streams each step's reply; a failed stream is reported as an event and retried.
func (a *StreamAgent) Run(ctx context.Context, msgs []StreamMsg, opts []string, events chan<- StreamEvent) error {
	for step := 0; step < a.Max; step++ {
		stream, err := a.model.Stream(ctx, msgs, opts...)
		if err != nil {
			events <- StreamEvent{Err: err}
			continue
		}
		msg := drain(stream)
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return nil
		}
		for _, tc := range msg.ToolCalls {
			t, ok := a.tools[tc.Name]
			if !ok {
				continue
			}
			out, err := t.Run(ctx, tc.Args)
			if err != nil {
				out = "error: " + err.Error()
			}
			msgs = append(msgs, StreamMsg{Role: "tool", Content: out})
		}
	}
	return nil
}

// Retry logs a failed stream and asks again.
func (a *StreamAgent) Retry(ctx context.Context, msgs []StreamMsg) (*StreamMsg, error) {
	for step := 0; step < a.Max; step++ {
		stream, err := a.model.Stream(ctx, msgs)
		if err != nil {
			log.Printf("stream failed, retrying")
			continue
		}
		msg := drain(stream)
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return &msg, nil
		}
		for _, tc := range msg.ToolCalls {
			if t, ok := a.tools[tc.Name]; ok {
				out, err := t.Run(ctx, tc.Args)
				if err != nil {
					out = "error: " + err.Error()
				}
				msgs = append(msgs, StreamMsg{Role: "tool", Content: out})
			}
		}
	}
	return nil, errors.New("too many steps")
}

func drain(s StreamReader) StreamMsg {
	defer s.Close()
	var m StreamMsg
	for {
		c, err := s.Recv()
		if err != nil {
			return m
		}
		m.Content += c.Delta
		m.ToolCalls = append(m.ToolCalls, c.ToolCalls...)
	}
}

// Lossy skips a failed tool: the model never hears of it.
func (a *StreamAgent) Lossy(ctx context.Context, msgs []StreamMsg) error {
	for step := 0; step < a.Max; step++ {
		stream, err := a.model.Stream(ctx, msgs)
		if err != nil {
			return err
		}
		msg := drain(stream)
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return nil
		}
		for _, tc := range msg.ToolCalls {
			if t, ok := a.tools[tc.Name]; ok {
				out, err := t.Run(ctx, tc.Args) // want `error of tool call t.Run is dropped on a path where it is not nil`
				if err != nil {
					continue
				}
				msgs = append(msgs, StreamMsg{Role: "tool", Content: out})
			}
		}
	}
	return nil
}
