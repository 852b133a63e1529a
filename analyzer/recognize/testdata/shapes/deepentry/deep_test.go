package deepentry

import (
	"context"
	"testing"
)

type fake struct{ n int }

func (f *fake) Complete(ctx context.Context, msgs []Message) (*Message, error) {
	f.n++
	if f.n == 1 {
		return &Message{ToolCalls: []ToolCall{{Name: "echo"}}}, nil
	}
	return &Message{Content: "done"}, nil
}

type echo struct{}

func (echo) Name() string                                          { return "echo" }
func (echo) Call(ctx context.Context, args string) (string, error) { return args, nil }

func TestChat(t *testing.T) {
	a := New(&fake{}, echo{})
	if out, err := a.Chat(context.Background(), "hi"); err != nil || out != "done" {
		t.Fatal(out, err)
	}
}
