package prebuilt

// The other prebuilt graphs of smallnest/langgraphgo@v0.5.0, reduced to their nodes:
// CreateAgent (create_agent.go:66-396, a second ReAct agent: skill, agent and tools nodes),
// CreateReflectionAgent (reflection_agent.go:42-101, 104-260), CreateSupervisor
// (supervisor.go:14-150, whose member nodes run another compiled graph) and CreatePlanningAgent
// (planning_agent.go:36-228, whose executor builds and runs a graph of the planned nodes). Every
// node is a closure handed to the same AddNode: with graph/wrappers.go, Node.Function holds
// more funcs than any one graph has.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"example.com/goshapes/supergraph/graph"
	"example.com/goshapes/supergraph/llms"
	"example.com/goshapes/supergraph/tools"
)

// CreateAgentOptions configures CreateAgent.
type CreateAgentOptions struct {
	skillDir      string
	SystemMessage string
}

// CreateAgentOption sets an option.
type CreateAgentOption func(*CreateAgentOptions)

// CreateAgent creates a ReAct agent with options (create_agent.go:66).
func CreateAgent(model llms.Model, inputTools []tools.Tool, opts ...CreateAgentOption) (*graph.StateRunnable, error) {
	options := &CreateAgentOptions{}
	for _, opt := range opts {
		opt(options)
	}
	workflow := graph.NewStateGraph()
	agentSchema := graph.NewMapSchema()
	agentSchema.RegisterReducer("messages", graph.AppendReducer)
	workflow.SetSchema(agentSchema)

	if options.skillDir != "" {
		workflow.AddNode("skill", "Skill discovery and selection node", func(ctx context.Context, state interface{}) (interface{}, error) {
			mState, ok := state.(map[string]interface{})
			if !ok {
				return nil, fmt.Errorf("invalid state type: %T", state)
			}
			if _, ok := mState["messages"].([]llms.MessageContent); !ok {
				return nil, nil
			}
			return map[string]interface{}{"extra_tools": []tools.Tool{}}, nil
		})
	}

	workflow.AddNode("agent", "Agent decision node with LLM", func(ctx context.Context, state interface{}) (interface{}, error) {
		mState, ok := state.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		messages, ok := mState["messages"].([]llms.MessageContent)
		if !ok {
			return nil, fmt.Errorf("messages key not found or invalid type")
		}
		var toolDefs []llms.Tool
		for _, t := range inputTools {
			toolDefs = append(toolDefs, llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: t.Name(), Description: t.Description()}})
		}
		msgsToSend := messages
		if options.SystemMessage != "" {
			msgsToSend = append([]llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart(options.SystemMessage)}}}, msgsToSend...)
		}
		resp, err := model.GenerateContent(ctx, msgsToSend, llms.WithTools(toolDefs))
		if err != nil {
			return nil, err
		}
		choice := resp.Choices[0]
		aiMsg := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		if choice.Content != "" {
			aiMsg.Parts = append(aiMsg.Parts, llms.TextPart(choice.Content))
		}
		if len(choice.ToolCalls) > 0 {
			for _, tc := range choice.ToolCalls {
				aiMsg.Parts = append(aiMsg.Parts, tc)
			}
		}
		return map[string]interface{}{"messages": []llms.MessageContent{aiMsg}}, nil
	})

	workflow.AddNode("tools", "Tool execution node", func(ctx context.Context, state interface{}) (interface{}, error) {
		mState, ok := state.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid state")
		}
		messages := mState["messages"].([]llms.MessageContent)
		lastMsg := messages[len(messages)-1]
		var toolMessages []llms.MessageContent
		for _, part := range lastMsg.Parts {
			if tc, ok := part.(llms.ToolCall); ok {
				var allTools []tools.Tool
				allTools = append(allTools, inputTools...)
				if extra, ok := mState["extra_tools"].([]tools.Tool); ok {
					allTools = append(allTools, extra...)
				}
				currentToolExecutor := NewToolExecutor(allTools)
				res, err := currentToolExecutor.Execute(ctx, ToolInvocation{Tool: tc.FunctionCall.Name, ToolInput: tc.FunctionCall.Arguments})
				if err != nil {
					res = fmt.Sprintf("Error: %v", err)
				}
				toolMessages = append(toolMessages, llms.MessageContent{
					Role:  llms.ChatMessageTypeTool,
					Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: res}},
				})
			}
		}
		return map[string]interface{}{"messages": toolMessages}, nil
	})

	if options.skillDir != "" {
		workflow.SetEntryPoint("skill")
		workflow.AddEdge("skill", "agent")
	} else {
		workflow.SetEntryPoint("agent")
	}
	workflow.AddConditionalEdge("agent", func(ctx context.Context, state interface{}) string {
		mState := state.(map[string]interface{})
		messages := mState["messages"].([]llms.MessageContent)
		lastMsg := messages[len(messages)-1]
		for _, part := range lastMsg.Parts {
			if _, ok := part.(llms.ToolCall); ok {
				return "tools"
			}
		}
		return graph.END
	})
	workflow.AddEdge("tools", "agent")
	return workflow.Compile()
}

// CreateReflectionAgent creates a generate/reflect graph (reflection_agent.go:42).
func CreateReflectionAgent(model llms.Model, maxIterations int) (*graph.StateRunnable, error) {
	workflow := graph.NewStateGraph()
	workflow.AddNode("generate", "Generate or revise response based on reflection", func(ctx context.Context, state interface{}) (interface{}, error) {
		return generateNode(ctx, state, model)
	})
	workflow.AddNode("reflect", "Reflect on the generated response and suggest improvements", func(ctx context.Context, state interface{}) (interface{}, error) {
		return reflectNode(ctx, state, model)
	})
	workflow.SetEntryPoint("generate")
	workflow.AddConditionalEdge("generate", func(ctx context.Context, state interface{}) string {
		mState := state.(map[string]interface{})
		if it, _ := mState["iteration"].(int); it >= maxIterations {
			return graph.END
		}
		return "reflect"
	})
	workflow.AddEdge("reflect", "generate")
	return workflow.Compile()
}

func generateNode(ctx context.Context, state interface{}, model llms.Model) (interface{}, error) {
	mState := state.(map[string]interface{})
	iteration, _ := mState["iteration"].(int)
	messages, _ := mState["messages"].([]llms.MessageContent)
	resp, err := model.GenerateContent(ctx, messages)
	if err != nil {
		return nil, fmt.Errorf("generation failed: %w", err)
	}
	return map[string]interface{}{"draft": resp.Choices[0].Content, "iteration": iteration + 1}, nil
}

func reflectNode(ctx context.Context, state interface{}, model llms.Model) (interface{}, error) {
	mState := state.(map[string]interface{})
	draft, _ := mState["draft"].(string)
	resp, err := model.GenerateContent(ctx, []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart(draft)}}})
	if err != nil {
		return nil, fmt.Errorf("reflection failed: %w", err)
	}
	return map[string]interface{}{"reflection": resp.Choices[0].Content}, nil
}

// CreateSupervisor creates a supervisor routing to member graphs (supervisor.go:14).
func CreateSupervisor(model llms.Model, members map[string]*graph.StateRunnable) (*graph.StateRunnable, error) {
	workflow := graph.NewStateGraph()
	var memberNames []string
	for name := range members {
		memberNames = append(memberNames, name)
	}
	workflow.AddNode("supervisor", "Supervisor orchestration node", func(ctx context.Context, state interface{}) (interface{}, error) {
		mState, ok := state.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid state type")
		}
		messages, _ := mState["messages"].([]llms.MessageContent)
		routeTool := llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: "route", Description: "Select the next role: " + strings.Join(memberNames, ", ")}}
		resp, err := model.GenerateContent(ctx, messages, llms.WithTools([]llms.Tool{routeTool}))
		if err != nil {
			return nil, err
		}
		choice := resp.Choices[0]
		if len(choice.ToolCalls) == 0 {
			return nil, fmt.Errorf("supervisor did not select a next step")
		}
		var args struct {
			Next string `json:"next"`
		}
		if err := json.Unmarshal([]byte(choice.ToolCalls[0].FunctionCall.Arguments), &args); err != nil {
			return nil, fmt.Errorf("failed to parse route arguments: %w", err)
		}
		return map[string]interface{}{"next": args.Next}, nil
	})
	for name, agent := range members {
		agentName := name
		agentRunnable := agent
		workflow.AddNode(agentName, "Agent: "+agentName, func(ctx context.Context, state interface{}) (interface{}, error) {
			res, err := agentRunnable.Invoke(ctx, state)
			if err != nil {
				return nil, err
			}
			return res, nil
		})
		workflow.AddEdge(agentName, "supervisor")
	}
	workflow.SetEntryPoint("supervisor")
	workflow.AddConditionalEdge("supervisor", func(ctx context.Context, state interface{}) string {
		mState := state.(map[string]interface{})
		next, ok := mState["next"].(string)
		if !ok || next == "FINISH" {
			return graph.END
		}
		return next
	})
	return workflow.Compile()
}

// CreatePlanningAgent creates a planner whose executor runs a graph of the planned nodes
// (planning_agent.go:36).
func CreatePlanningAgent(model llms.Model, nodes []*graph.Node) (*graph.StateRunnable, error) {
	nodeMap := make(map[string]*graph.Node)
	for _, n := range nodes {
		nodeMap[n.Name] = n
	}
	workflow := graph.NewStateGraph()
	workflow.AddNode("planner", "Generates workflow plan based on user request", func(ctx context.Context, state interface{}) (interface{}, error) {
		mState, ok := state.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		messages, ok := mState["messages"].([]llms.MessageContent)
		if !ok || len(messages) == 0 {
			return nil, fmt.Errorf("no messages found in state")
		}
		resp, err := model.GenerateContent(ctx, messages)
		if err != nil {
			return nil, fmt.Errorf("failed to generate plan: %w", err)
		}
		return map[string]interface{}{"workflow_plan": strings.Fields(resp.Choices[0].Content)}, nil
	})
	workflow.AddNode("executor", "Executes the planned workflow", func(ctx context.Context, state interface{}) (interface{}, error) {
		mState, ok := state.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		plan, ok := mState["workflow_plan"].([]string)
		if !ok || len(plan) == 0 {
			return nil, fmt.Errorf("workflow_plan not found in state")
		}
		dynamicWorkflow := graph.NewStateGraph()
		for _, name := range plan {
			actualNode, exists := nodeMap[name]
			if !exists {
				return nil, fmt.Errorf("node %s not found in available nodes", name)
			}
			dynamicWorkflow.AddNode(actualNode.Name, actualNode.Description, actualNode.Function)
		}
		dynamicWorkflow.SetEntryPoint(plan[0])
		runnable, err := dynamicWorkflow.Compile()
		if err != nil {
			return nil, err
		}
		return runnable.Invoke(ctx, state)
	})
	workflow.SetEntryPoint("planner")
	workflow.AddEdge("planner", "executor")
	workflow.AddEdge("executor", graph.END)
	return workflow.Compile()
}
