// Package reflectsearch is a planning multi-agent shaped like
// github.com/smallnest/goskills@v0.3.5 agent/agent.go:226-370 and agent/subagents.go:41-215:
// a planner asks the model for a plan and runs each task through a map of Subagent interface
// values; the search sub-agent is a reflection loop with no tool-call API, in which the model's
// trimmed reply text is either the marker SUFFICIENT (leave, after logging) or the next search query, handed
// to a plain search function (with a fallback) whose results are added to the next prompt.
package reflectsearch

import (
	"context"
	"fmt"
	"strings"

	openai "example.com/goshapes/goopenai"
	"example.com/goshapes/reflectsearch/websearch"
)

// Task is one step of a plan.
type Task struct {
	Type        string
	Description string
	Parameters  map[string]any
}

// Result is what a sub-agent produced.
type Result struct {
	TaskType string
	Success  bool
	Output   string
	Error    string
}

// Subagent runs one kind of task.
type Subagent interface {
	Execute(ctx context.Context, task Task) (Result, error)
}

// SearchSubagent searches the web, asking the model whether it found enough.
type SearchSubagent struct {
	client  *openai.Client
	model   string
	verbose bool
}

// Execute searches, then reflects on the results with the model (subagents.go:41-215).
func (s *SearchSubagent) Execute(ctx context.Context, task Task) (Result, error) {
	query, ok := task.Parameters["query"].(string)
	if !ok {
		query = task.Description
	}
	searchResult, err := websearch.TavilySearch(query)
	if err != nil {
		searchResult, err = websearch.DuckDuckGoSearch(query)
		if err != nil {
			return Result{TaskType: "SEARCH", Success: false, Error: err.Error()}, err
		}
	}

	maxIterations := 3
	accumulated := searchResult

	for i := 0; i < maxIterations; i++ {
		prompt := fmt.Sprintf("Query: %s\nResults:\n%s\nReply SUFFICIENT or a new search query.", query, accumulated)
		resp, err := s.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
			Model: s.model,
			Messages: []openai.ChatCompletionMessage{
				{Role: openai.ChatMessageRoleSystem, Content: "You judge search results."},
				{Role: openai.ChatMessageRoleUser, Content: prompt},
			},
		})
		if err != nil {
			fmt.Printf("reflection failed: %v\n", err)
			break
		}

		decision := strings.TrimSpace(resp.Choices[0].Message.Content)
		if strings.Contains(strings.ToUpper(decision), "SUFFICIENT") {
			if s.verbose {
				fmt.Println("the model found the results sufficient")
			}
			break
		}

		newQuery := strings.Trim(decision, "\"'")
		newResults, err := websearch.TavilySearch(newQuery)
		if err != nil {
			newResults, err = websearch.DuckDuckGoSearch(newQuery)
		}
		if err == nil {
			accumulated += "\n\n--- Additional Search Results ---\n" + newResults
		}
	}

	return Result{TaskType: "SEARCH", Success: true, Output: accumulated}, nil
}
