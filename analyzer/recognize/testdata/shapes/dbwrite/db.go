// Package dbwrite stores messages that carry tool calls: a database write is not a model call.
package dbwrite

import (
	"context"

	"example.com/shapes/llm"
)

// Store persists messages.
type Store interface {
	Save(ctx context.Context, m llm.Message) (*llm.Message, error)
}

// Archive saves every message of a conversation.
func Archive(ctx context.Context, s Store, msgs []llm.Message) error {
	for _, m := range msgs {
		saved, err := s.Save(ctx, m)
		if err != nil {
			return err
		}
		_ = saved.ToolCalls
	}
	return nil
}
