package reflectsearch

import (
	"context"
	"encoding/json"
	"fmt"

	openai "example.com/goshapes/goopenai"
)

// Plan is the model's plan.
type Plan struct {
	Tasks []Task `json:"tasks"`
}

// PlanningAgent plans with one model call and runs each task with its sub-agent
// (goskills@v0.3.5 agent/agent.go:226-370).
type PlanningAgent struct {
	client    *openai.Client
	model     string
	subagents map[string]Subagent
	messages  []openai.ChatCompletionMessage
}

// NewPlanningAgent makes a planner with its sub-agents.
func NewPlanningAgent(client *openai.Client, model string) *PlanningAgent {
	return &PlanningAgent{client: client, model: model, subagents: map[string]Subagent{
		"SEARCH": &SearchSubagent{client: client, model: model},
	}}
}

// Plan asks the model for a plan.
func (a *PlanningAgent) Plan(ctx context.Context, request string) (*Plan, error) {
	resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:    a.model,
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: request}},
	})
	if err != nil {
		return nil, err
	}
	var plan Plan
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &plan); err != nil {
		return nil, err
	}
	return &plan, nil
}

// Execute runs each task of the plan with its sub-agent.
func (a *PlanningAgent) Execute(ctx context.Context, plan *Plan) ([]Result, error) {
	var results []Result
	for i, task := range plan.Tasks {
		subagent, ok := a.subagents[task.Type]
		if !ok {
			return nil, fmt.Errorf("unknown task type: %s", task.Type)
		}
		result, err := subagent.Execute(ctx, task)
		if err != nil {
			return nil, fmt.Errorf("task %d failed: %w", i+1, err)
		}
		results = append(results, result)
	}
	return results, nil
}

// Run plans and executes a request.
func (a *PlanningAgent) Run(ctx context.Context, request string) (string, error) {
	plan, err := a.Plan(ctx, request)
	if err != nil {
		return "", err
	}
	results, err := a.Execute(ctx, plan)
	if err != nil {
		return "", err
	}
	out := ""
	for _, r := range results {
		if r.Success {
			out += r.Output + "\n\n"
		}
	}
	return out, nil
}
