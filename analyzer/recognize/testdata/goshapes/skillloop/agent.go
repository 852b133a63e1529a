// Package skillloop is a skills agent shaped like github.com/smallnest/goskills@v0.3.5
// runner.go:62-330: an exported Run selects a skill with one model call, then hands over to
// a helper whose loop (a literal bound of 10) asks a go-openai-like concrete client, appends
// the reply to the agent's history, leaves when the reply has no tool calls, and runs each
// tool call after asking the user to approve it (fmt.Scanln, unless auto-approved), through
// an MCP client for a name with "__" or a switch on the tool's name otherwise.
package skillloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	openai "example.com/goshapes/goopenai"
)

// Config configures the agent.
type Config struct {
	Model       string
	AutoApprove bool
	Verbose     bool
}

// Session is a connection to one MCP server (modelcontextprotocol/go-sdk's ClientSession).
type Session struct{ conn *os.File }

// CallToolParams names a remote tool and its arguments.
type CallToolParams struct {
	Name      string
	Arguments map[string]any
}

// CallTool runs a tool on the server.
func (s *Session) CallTool(ctx context.Context, p *CallToolParams) (map[string]any, error) {
	if _, err := fmt.Fprintf(s.conn, "%s\n", p.Name); err != nil {
		return nil, err
	}
	return map[string]any{"ok": p.Name}, nil
}

// MCPClient calls remote tools on the servers it is connected to
// (goskills@v0.3.5 mcp/client.go:136-157).
type MCPClient struct{ sessions map[string]*Session }

// CallTool calls the tool "server__tool" on its server.
func (m *MCPClient) CallTool(ctx context.Context, name string, args map[string]any) (any, error) {
	serverName, toolName, err := parseToolName(name)
	if err != nil {
		return nil, err
	}
	session, ok := m.sessions[serverName]
	if !ok {
		return nil, fmt.Errorf("server %s not found", serverName)
	}
	result, err := session.CallTool(ctx, &CallToolParams{Name: toolName, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("call tool: %w", err)
	}
	return result, nil
}

func parseToolName(name string) (string, string, error) {
	parts := strings.Split(name, "__")
	if len(parts) != 2 {
		return "", "", fmt.Errorf("bad tool name %s", name)
	}
	return parts[0], parts[1], nil
}

// Agent runs skills.
type Agent struct {
	client    *openai.Client
	cfg       Config
	messages  []openai.ChatCompletionMessage
	mcpClient *MCPClient
}

// New makes an agent.
func New(token string, cfg Config) *Agent {
	return &Agent{client: openai.NewClient(token), cfg: cfg}
}

// Run selects a skill and runs it with tools.
func (a *Agent) Run(ctx context.Context, prompt string) (string, error) {
	skill, err := a.selectSkill(ctx, prompt)
	if err != nil {
		return "", err
	}
	return a.executeSkill(ctx, prompt, skill)
}

func (a *Agent) selectSkill(ctx context.Context, prompt string) (string, error) {
	resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: a.cfg.Model,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: prompt}}})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(resp.Choices[0].Message.Content), nil
}

func (a *Agent) executeSkill(ctx context.Context, prompt, skill string) (string, error) {
	a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: skill})
	return a.continueSkill(ctx, prompt)
}

func (a *Agent) continueSkill(ctx context.Context, prompt string) (string, error) {
	a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: prompt})
	var final strings.Builder
	for i := 0; i < 10; i++ {
		req := openai.ChatCompletionRequest{Model: a.cfg.Model, Messages: a.messages}
		resp, err := a.client.CreateChatCompletion(ctx, req)
		if err != nil {
			return "", fmt.Errorf("chat: %w", err)
		}
		msg := resp.Choices[0].Message
		a.messages = append(a.messages, msg)
		if msg.ToolCalls == nil {
			final.WriteString(msg.Content)
			return final.String(), nil
		}
		for _, tc := range msg.ToolCalls {
			if !a.cfg.AutoApprove {
				fmt.Print("allow? [y/N]: ")
				var input string
				fmt.Scanln(&input)
				if strings.ToLower(strings.TrimSpace(input)) != "y" {
					a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Content: "denied"})
					continue
				}
			}
			var out string
			var err error
			if a.mcpClient != nil && strings.Contains(tc.Function.Name, "__") {
				var args map[string]any
				if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil {
					err = fmt.Errorf("args: %w", err)
				} else {
					var result any
					result, err = a.mcpClient.CallTool(ctx, tc.Function.Name, args)
					if err == nil {
						b, _ := json.Marshal(result)
						out = string(b)
					}
				}
			} else {
				out, err = a.executeToolCall(tc)
			}
			if err != nil {
				a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Content: fmt.Sprintf("Error: %v", err)})
			} else {
				a.messages = append(a.messages, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Content: out})
			}
		}
	}
	return "", errors.New("exceeded maximum tool call iterations")
}

func (a *Agent) executeToolCall(tc openai.ToolCall) (string, error) {
	var params struct {
		Code string `json:"code"`
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &params); err != nil {
		return "", err
	}
	switch tc.Function.Name {
	case "run_shell_code":
		return runShell(params.Code)
	case "read_file":
		return readFile(params.Path)
	default:
		return "", fmt.Errorf("unknown tool %s", tc.Function.Name)
	}
}

func runShell(code string) (string, error) {
	out, err := exec.Command("sh", "-c", code).CombinedOutput()
	return string(out), err
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}
