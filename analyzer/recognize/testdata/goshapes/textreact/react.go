// Package textreact is a ReAct agent whose tool call is parsed out of the model's text, shaped
// like github.com/taipm/go-deep-agent@1e67c4c agent/builder_react.go (Builder.executeReAct,
// askWithMessages, executeTool) and @b391a32 agent/react_parser.go (parseReActStep, parseAction,
// parseFinal): the loop asks a helper that returns the reply's text, a plain parser with
// regular expressions splits it into a step type, a tool name and its arguments, a switch on the
// step type goes on after a thought, runs the named tool after an action (found by comparing
// each registered tool's Name, run through its Handler func field) and appends the observation
// to the next request, and returns on the final answer; the bound is a config field (default 5,
// NewReActConfig) and reaching it returns an error. The chat client is the go-openai-shaped one
// of this module (the original asks openai-go through executeSyncRaw).
package textreact

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	openai "example.com/goshapes/goopenai"
)

// Step types of the ReAct text format.
const (
	StepTypeThought     = "THOUGHT"
	StepTypeAction      = "ACTION"
	StepTypeFinal       = "FINAL"
	StepTypeObservation = "OBSERVATION"
)

// Message is one chat message.
type Message struct{ Role, Content string }

// System, User and Assistant make messages.
func System(s string) Message    { return Message{"system", s} }
func User(s string) Message      { return Message{"user", s} }
func Assistant(s string) Message { return Message{"assistant", s} }

// Tool is a tool the model may name.
type Tool struct {
	Name        string
	Description string
	Handler     func(args string) (string, error)
}

// ReActConfig configures the loop.
type ReActConfig struct {
	MaxIterations int
	Strict        bool
}

// NewReActConfig is the default configuration.
func NewReActConfig() *ReActConfig { return &ReActConfig{MaxIterations: 5} }

// ReActStep is one step of a run.
type ReActStep struct {
	Type, Content, Tool string
	Args                map[string]any
}

// ReActResult is a run's outcome.
type ReActResult struct {
	Answer     string
	Steps      []ReActStep
	Success    bool
	Iterations int
	Error      error
}

// Builder is the agent.
type Builder struct {
	client      *openai.Client
	model       string
	tools       []*Tool
	reactConfig *ReActConfig
}

// New makes an agent.
func New(client *openai.Client, tools ...*Tool) *Builder {
	return &Builder{client: client, model: "gpt-4o-mini", tools: tools, reactConfig: NewReActConfig()}
}

// Execute runs a task with the ReAct loop.
func (b *Builder) Execute(ctx context.Context, task string) (*ReActResult, error) {
	return b.executeReAct(ctx, task)
}

func (b *Builder) executeReAct(ctx context.Context, task string) (*ReActResult, error) {
	result := &ReActResult{}
	messages := []Message{System("Use THOUGHT:, ACTION: tool(args) and FINAL:."), User(task)}
	for iteration := 0; iteration < b.reactConfig.MaxIterations; iteration++ {
		response, err := b.askWithMessages(ctx, messages)
		if err != nil {
			result.Error = fmt.Errorf("LLM call failed at iteration %d: %w", iteration+1, err)
			return result, result.Error
		}

		stepType, content, tool, args, parseErr := parseReActStep(response)
		if parseErr != nil {
			if b.reactConfig.Strict {
				result.Error = fmt.Errorf("parse error at iteration %d: %w", iteration+1, parseErr)
				return result, result.Error
			}
			if iteration < b.reactConfig.MaxIterations-1 {
				messages = append(messages, Assistant(response))
				messages = append(messages, User("Your previous response could not be parsed: "+parseErr.Error()))
				continue
			}
			stepType = StepTypeFinal
			content = response
		}

		result.Steps = append(result.Steps, ReActStep{Type: stepType, Content: content, Tool: tool, Args: args})

		switch stepType {
		case StepTypeThought:
			messages = append(messages, Assistant(response))

		case StepTypeAction:
			messages = append(messages, Assistant(response))
			observation, toolErr := b.executeTool(ctx, tool, args)
			if toolErr != nil {
				if b.reactConfig.Strict {
					result.Error = fmt.Errorf("tool execution failed: %w", toolErr)
					return result, result.Error
				}
				observation = fmt.Sprintf("Tool execution failed: %v", toolErr)
			}
			messages = append(messages, User(fmt.Sprintf("OBSERVATION: %s", observation)))

		case StepTypeFinal:
			result.Answer = content
			result.Success = true
			result.Iterations = iteration + 1
			return result, nil

		default:
			result.Error = fmt.Errorf("unknown step type: %s", stepType)
			return result, result.Error
		}
	}

	result.Error = fmt.Errorf("max iterations (%d) reached without final answer", b.reactConfig.MaxIterations)
	result.Iterations = b.reactConfig.MaxIterations
	return result, result.Error
}

// askWithMessages sends the messages and returns the reply's text.
func (b *Builder) askWithMessages(ctx context.Context, messages []Message) (string, error) {
	req := openai.ChatCompletionRequest{Model: b.model}
	for _, m := range messages {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	completion, err := b.client.CreateChatCompletion(ctx, req)
	if err != nil {
		return "", err
	}
	if len(completion.Choices) == 0 {
		return "", fmt.Errorf("no response choices returned")
	}
	return completion.Choices[0].Message.Content, nil
}

// executeTool runs the tool of that name.
func (b *Builder) executeTool(ctx context.Context, toolName string, args map[string]any) (string, error) {
	var targetTool *Tool
	for _, tool := range b.tools {
		if tool.Name == toolName {
			targetTool = tool
			break
		}
	}
	if targetTool == nil {
		return "", fmt.Errorf("tool not found: %s", toolName)
	}
	if targetTool.Handler == nil {
		return "", fmt.Errorf("tool %s has no handler", toolName)
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return "", fmt.Errorf("failed to marshal tool arguments: %w", err)
	}
	result, err := targetTool.Handler(string(argsJSON))
	if err != nil {
		return "", fmt.Errorf("tool execution failed: %w", err)
	}
	return result, nil
}

var (
	thoughtRegex = regexp.MustCompile(`(?i)^THOUGHT:\s*(.+)$`)
	actionRegex  = regexp.MustCompile(`(?i)^ACTION:\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:\((.*)\))?$`)
	finalRegex   = regexp.MustCompile(`(?i)^FINAL:\s*(.+)$`)
)

func parseThought(text string) string {
	if m := thoughtRegex.FindStringSubmatch(strings.TrimSpace(text)); len(m) > 1 {
		return strings.TrimSpace(m[1])
	}
	return ""
}

func parseAction(text string) (tool string, argsStr string, ok bool) {
	m := actionRegex.FindStringSubmatch(strings.TrimSpace(text))
	if len(m) < 2 {
		return "", "", false
	}
	tool = m[1]
	if len(m) > 2 {
		argsStr = strings.TrimSpace(m[2])
	}
	return tool, argsStr, true
}

func parseActionArgs(argsStr string) (map[string]any, error) {
	args := map[string]any{}
	if argsStr == "" {
		return args, nil
	}
	if err := json.Unmarshal([]byte(argsStr), &args); err != nil {
		return nil, fmt.Errorf("could not parse arguments: %s", argsStr)
	}
	return args, nil
}

func parseFinal(text string) string {
	if m := finalRegex.FindStringSubmatch(strings.TrimSpace(text)); len(m) > 1 {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// parseReActStep tells the step type of a reply and, for an action, its tool and arguments.
func parseReActStep(text string) (stepType string, content string, tool string, args map[string]any, err error) {
	text = strings.TrimSpace(text)
	if thought := parseThought(text); thought != "" {
		return StepTypeThought, thought, "", nil, nil
	}
	if toolName, argsStr, ok := parseAction(text); ok {
		parsedArgs, parseErr := parseActionArgs(argsStr)
		if parseErr != nil {
			return StepTypeAction, text, toolName, nil, fmt.Errorf("failed to parse action arguments: %w", parseErr)
		}
		return StepTypeAction, text, toolName, parsedArgs, nil
	}
	if final := parseFinal(text); final != "" {
		return StepTypeFinal, final, "", nil, nil
	}
	return "", "", "", nil, fmt.Errorf("unrecognized step format: %s", text)
}
