// Package chatresume is a chat continuation: the entry takes the state of the previous turn,
// runs until the model answers or asks the user, and hands back its state to resume with
// when it waits for the user's next input.
package chatresume

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// State is what a conversation resumes from.
type State interface{}

// Response is one chat turn's answer.
type Response struct {
	Done    bool
	Content string
	State   State
}

type state struct {
	msgs   []llm.Message
	result *string
	ask    string
}

// Chatter runs chat turns.
type Chatter struct {
	c     *llm.Client
	tools map[string]func(string) string
}

func (ch *Chatter) run(ctx context.Context, st *state) (*state, error) {
	for {
		resp, err := ch.c.Chat(ctx, llm.Request{Messages: st.msgs})
		if err != nil {
			return nil, err
		}
		m := resp.Choices[0].Message
		st.msgs = append(st.msgs, m)
		if len(m.ToolCalls) == 0 {
			if m.Role == "question" {
				st.ask = m.Content
				return st, nil
			}
			st.result = &m.Content
			return st, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := ch.tools[tc.Function.Name]; ok {
				st.msgs = append(st.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}

// Chat runs one turn of the conversation.
func (ch *Chatter) Chat(ctx context.Context, prev State, input string) (resp Response, err error) {
	st, ok := prev.(*state)
	if prev != nil && !ok {
		return resp, errors.New("bad state")
	}
	if st == nil {
		st = &state{}
	}
	st.msgs = append(st.msgs, llm.Message{Role: "user", Content: input})
	st, err = ch.run(ctx, st)
	if err != nil {
		return resp, err
	}
	if st.result != nil {
		return Response{Done: true, Content: *st.result}, nil
	}
	return Response{Content: st.ask, State: st}, nil
}
