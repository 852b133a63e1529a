// Package anyfn is an assistant shaped like github.com/henomis/lingoose@v0.3.0
// assistant/assistant.go:78-133 and llm/openai (openai.go:185-345, 405-440, function.go:15-20,
// 166-212): the loop runs one iteration helper that hands the shared thread to an LLM
// interface and stops once the thread's last message is not a tool's; the implementation asks a
// go-openai-like client, looks each tool call's function up by name in a map of records whose
// Fn field is a func of any signature, calls it by reflection (reflect.ValueOf(fn).Call) and
// adds the reply and the tool results to the thread.
package anyfn

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	openai "example.com/goshapes/goopenai"
)

// Message is a thread message.
type Message struct {
	Role    string
	Content string
	CallID  string
}

// Thread is the conversation.
type Thread struct{ Messages []*Message }

// AddMessages appends messages.
func (t *Thread) AddMessages(ms ...*Message) *Thread {
	t.Messages = append(t.Messages, ms...)
	return t
}

// LastMessage is the last message.
func (t *Thread) LastMessage() *Message { return t.Messages[len(t.Messages)-1] }

// LLM generates into a thread.
type LLM interface {
	Generate(ctx context.Context, t *Thread) error
}

// Assistant runs an LLM over a thread.
type Assistant struct {
	llm           LLM
	thread        *Thread
	maxIterations uint
}

// New makes an assistant.
func New(llm LLM) *Assistant { return &Assistant{llm: llm, maxIterations: 3} }

// WithThread sets the thread.
func (a *Assistant) WithThread(t *Thread) *Assistant {
	a.thread = t
	return a
}

// Run runs the assistant.
func (a *Assistant) Run(ctx context.Context) error {
	if a.thread == nil {
		return nil
	}
	for i := 0; i < int(a.maxIterations); i++ {
		err := a.runIteration(ctx, i)
		if err != nil {
			return err
		}
		if a.thread.LastMessage().Role != "tool" {
			break
		}
	}
	return nil
}

func (a *Assistant) runIteration(ctx context.Context, iteration int) error {
	err := a.llm.Generate(ctx, a.thread)
	if err != nil {
		return err
	}
	return nil
}

// Function is a tool: Fn is a func taking one struct argument.
type Function struct {
	Name        string
	Description string
	Fn          interface{}
}

// OpenAI is an LLM.
type OpenAI struct {
	client    *openai.Client
	functions map[string]Function
}

// NewOpenAI makes an OpenAI LLM.
func NewOpenAI(token string) *OpenAI {
	return &OpenAI{client: openai.NewClient(token), functions: map[string]Function{}}
}

// BindFunction adds a tool.
func (o *OpenAI) BindFunction(fn interface{}, name, description string) {
	o.functions[name] = Function{Name: name, Description: description, Fn: fn}
}

// Generate implements LLM.
func (o *OpenAI) Generate(ctx context.Context, t *Thread) error {
	req := openai.ChatCompletionRequest{Model: "gpt-4o"}
	for _, m := range t.Messages {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.CallID})
	}
	return o.generate(ctx, t, req)
}

func (o *OpenAI) generate(ctx context.Context, t *Thread, req openai.ChatCompletionRequest) error {
	response, err := o.client.CreateChatCompletion(ctx, req)
	if err != nil {
		return fmt.Errorf("openai: %w", err)
	}
	if len(response.Choices) == 0 {
		return fmt.Errorf("openai: no choices")
	}
	var messages []*Message
	if len(response.Choices[0].Message.ToolCalls) > 0 {
		messages = append(messages, &Message{Role: "assistant"})
		messages = append(messages, o.callTools(response.Choices[0].Message.ToolCalls)...)
	} else {
		messages = []*Message{{Role: "assistant", Content: response.Choices[0].Message.Content}}
	}
	t.AddMessages(messages...)
	return nil
}

func (o *OpenAI) callTool(toolCall openai.ToolCall) (string, error) {
	fn, ok := o.functions[toolCall.Function.Name]
	if !ok {
		return "", fmt.Errorf("unknown function %s", toolCall.Function.Name)
	}
	return callFnWithArgumentAsJSON(fn.Fn, toolCall.Function.Arguments)
}

func (o *OpenAI) callTools(toolCalls []openai.ToolCall) []*Message {
	if len(o.functions) == 0 || len(toolCalls) == 0 {
		return nil
	}
	var messages []*Message
	for _, toolCall := range toolCalls {
		result, err := o.callTool(toolCall)
		if err != nil {
			result = fmt.Sprintf("error: %s", err)
		}
		messages = append(messages, &Message{Role: "tool", Content: result, CallID: toolCall.ID})
	}
	return messages
}

func callFnWithArgumentAsJSON(fn interface{}, argumentAsJSON string) (string, error) {
	fnType := reflect.TypeOf(fn)
	if fnType.NumIn() != 1 {
		return "", fmt.Errorf("function must have one argument")
	}
	arg := reflect.New(fnType.In(0))
	if err := json.Unmarshal([]byte(argumentAsJSON), arg.Interface()); err != nil {
		return "", fmt.Errorf("error unmarshaling argument: %w", err)
	}
	out := reflect.ValueOf(fn).Call([]reflect.Value{arg.Elem()})
	b, err := json.Marshal(out[0].Interface())
	if err != nil {
		return "", err
	}
	return string(b), nil
}
