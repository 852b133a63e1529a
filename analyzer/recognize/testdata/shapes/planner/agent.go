// Package planner has sub-agents with no tool-call API: the model's text reply is parsed into
// the next action and its argument, with a fallback when the reply does not parse; an
// orchestrator runs the sub-agent a map of interface values names.
package planner

import (
	"context"
	"errors"
	"strings"
)

// Model completes a prompt.
type Model interface {
	Complete(ctx context.Context, prompt string) (string, error)
}

// Action is the next thing to do.
type Action struct {
	Verb, Arg string
}

func parse(reply string) (Action, bool) {
	verb, arg, ok := strings.Cut(strings.TrimSpace(reply), ":")
	if !ok {
		return Action{}, false
	}
	return Action{Verb: strings.ToLower(strings.TrimSpace(verb)), Arg: strings.TrimSpace(arg)}, true
}

// Task is what an agent is asked to do.
type Task struct{ Goal string }

// Agent runs a task.
type Agent interface {
	Run(ctx context.Context, task Task) (string, error)
}

// Researcher searches and reads until it can answer.
type Researcher struct {
	M        Model
	Search   func(ctx context.Context, q string) (string, error)
	Fetch    func(ctx context.Context, url string) (string, error)
	MaxSteps int
}

// Run plans with the model, one action per step.
func (r *Researcher) Run(ctx context.Context, task Task) (string, error) {
	notes := "task: " + task.Goal
	for i := 0; i < r.MaxSteps; i++ {
		reply, err := r.M.Complete(ctx, notes)
		if err != nil {
			return "", err
		}
		act, ok := parse(reply)
		if !ok {
			act = Action{Verb: "answer", Arg: reply}
		}
		var obs string
		switch act.Verb {
		case "answer":
			return act.Arg, nil
		case "search":
			obs, err = r.Search(ctx, act.Arg)
		case "fetch":
			obs, err = r.Fetch(ctx, act.Arg)
		default:
			obs = "unknown action " + act.Verb
		}
		if err != nil {
			obs = "error: " + err.Error()
		}
		notes += "\n" + act.Verb + ": " + act.Arg + "\n-> " + obs
	}
	return "", errors.New("planner: out of steps")
}

// Orchestrator hands tasks to named sub-agents.
type Orchestrator struct {
	Agents map[string]Agent
}

// Delegate runs the named agent on the task.
func (o *Orchestrator) Delegate(ctx context.Context, name string, task Task) (string, error) {
	a, ok := o.Agents[name]
	if !ok {
		return "", errors.New("no agent " + name)
	}
	return a.Run(ctx, task)
}

// Route runs the agent the map names directly.
func (o *Orchestrator) Route(ctx context.Context, name string, task Task) (string, error) {
	return o.Agents[name].Run(ctx, task)
}
