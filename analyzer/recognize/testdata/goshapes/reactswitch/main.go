// Command reactswitch is a ReAct CLI shaped like github.com/toumakido/reAct@0ba2ce7
// 03-api-server-react/main.go (runReActLoop, parseAction) with lib/bedrock/client.go and
// lib/tools/readfile.go: the loop asks the model, appends its reply, returns once the reply's
// text contains "Final Answer:", else parses "Action:" and "Action Input:" out of the text with
// regular expressions and runs the tool a switch on the action names, appending the observation
// as the next user message; reaching the bound (a constant, 15) is an error.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

const systemPrompt = "Answer with Thought:, Action:, Action Input: lines, or Final Answer:."

const maxIterations = 15

func main() {
	if len(os.Args) < 2 {
		log.Fatal(`Usage: go run . "Your question here"`)
	}
	ctx := context.Background()
	client := &Client{modelID: "anthropic.claude"}
	if err := runReActLoop(ctx, client, os.Args[1]); err != nil {
		log.Fatalf("Error during ReAct loop: %v", err)
	}
}

func runReActLoop(ctx context.Context, client *Client, question string) error {
	messages := []Message{{Role: "user", Content: question}}
	for i := 0; i < maxIterations; i++ {
		result, err := client.InvokeModel(ctx, systemPrompt, messages)
		if err != nil {
			return fmt.Errorf("failed to invoke model: %w", err)
		}
		fmt.Println(result.Text)
		messages = append(messages, Message{Role: "assistant", Content: result.Text})

		if strings.Contains(result.Text, "Final Answer:") {
			fmt.Println("=== Agent Complete ===")
			return nil
		}

		action, actionInput, found := parseAction(result.Text)
		if !found {
			continue
		}

		var observation string
		switch action {
		case "ListFiles":
			result, err := ListFilesTree()
			if err != nil {
				observation = fmt.Sprintf("Error listing files: %v", err)
			} else {
				observation = result
			}
		case "ReadFile":
			if actionInput == "" {
				observation = "Error: ReadFile requires a filename as Action Input"
			} else {
				content, err := ReadFile(actionInput)
				if err != nil {
					observation = fmt.Sprintf("Error reading file: %v", err)
				} else {
					observation = fmt.Sprintf("Content of %s:\n%s", actionInput, content)
				}
			}
		default:
			observation = fmt.Sprintf("Error: Unknown action '%s'. Available actions: ListFiles, ReadFile", action)
		}

		messages = append(messages, Message{Role: "user", Content: fmt.Sprintf("Observation: %s", observation)})
	}
	return fmt.Errorf("max iterations (%d) reached without final answer", maxIterations)
}

func parseAction(response string) (action string, actionInput string, found bool) {
	actionMatch := regexp.MustCompile(`(?i)Action:\s*(\w+)`).FindStringSubmatch(response)
	if len(actionMatch) < 2 {
		return "", "", false
	}
	action = strings.TrimSpace(actionMatch[1])
	actionInputMatch := regexp.MustCompile(`(?i)Action Input:\s*(.+?)(?:\n|$)`).FindStringSubmatch(response)
	if len(actionInputMatch) >= 2 {
		actionInput = strings.TrimSpace(actionInputMatch[1])
	}
	return action, actionInput, true
}

// ListFilesTree lists the data directory.
func ListFilesTree() (string, error) {
	var b strings.Builder
	err := filepath.Walk("data", func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(path + "\n")
		return nil
	})
	return b.String(), err
}

// ReadFile reads a file of the data directory.
func ReadFile(name string) (string, error) {
	data, err := os.ReadFile(filepath.Join("data", name))
	if err != nil {
		return "", err
	}
	return string(data), nil
}
