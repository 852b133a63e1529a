// Package smolagents reads smolagents memory steps: the list of step.dict() that
// agent.memory.get_full_steps() returns, the RunResult of run(..., return_full_result=True)
// ({output, state, steps, token_usage, timing}), or one step dict per line as a step_callback
// logs them. The dicts carry no type tag; the class is inferred from the keys (memory.py):
// TaskStep {task, task_images}, ActionStep {step_number, timing, …}, PlanningStep {plan,
// timing, …}, FinalAnswerStep {output}, SystemPromptStep {system_prompt}.
//
// Mapping (docs/formats.md): each TaskStep starts a Run (one run() call) with one inferred Turn;
// an ActionStep is a Step with one model call (model_output_message/token_usage) and its
// tool_calls; a PlanningStep is a Step with a model call and no tools; the memory (the file) is
// the Session. Timing is per step only, so model and tool calls get the step's interval
// (Inferred "ts"); per-call results are not recorded (observations are per step).
package smolagents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "smolagents"

// Description says which producer writes the format.
const Description = "smolagents memory steps (memory.get_full_steps(), RunResult, step_callback JSON lines)"

var (
	reTask     = regexp.MustCompile(`"task_images"\s*:`)
	reStepNum  = regexp.MustCompile(`"step_number"\s*:\s*\d`)
	reTiming   = regexp.MustCompile(`"timing"\s*:\s*\{\s*"start_time"`)
	rePlan     = regexp.MustCompile(`"plan"\s*:`)
	reState    = regexp.MustCompile(`"state"\s*:\s*"(success|max_steps_error)"`)
	reSteps    = regexp.MustCompile(`"steps"\s*:\s*\[`)
	reSysPromp = regexp.MustCompile(`^\s*[\[{]\s*\{?\s*"system_prompt"\s*:`)
)

// Detect scores how much head looks like smolagents memory steps: a JSON array or object whose
// first record has TaskStep, ActionStep or PlanningStep keys, or a RunResult with a state and
// steps.
func Detect(head []byte) int {
	h := bytes.TrimSpace(head)
	if len(h) == 0 || h[0] != '[' && h[0] != '{' {
		return 0
	}
	if bytes.Contains(h[:min(len(h), 512)], []byte(`"resourceSpans"`)) {
		return 0
	}
	switch {
	case reState.Match(head) && reSteps.Match(head):
		return 85
	case reTask.Match(head), reStepNum.Match(head) && reTiming.Match(head), rePlan.Match(head) && reTiming.Match(head), reSysPromp.Match(head):
		return 85
	}
	return 0
}

type timing struct {
	StartTime *float64 `json:"start_time"`
	EndTime   *float64 `json:"end_time"`
}

type tokenUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

type agentError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments any    `json:"arguments"`
	} `json:"function"`
}

// step is the union of the step dicts' keys; present records which keys the dict had.
type step struct {
	Task               *string          `json:"task"`
	StepNumber         *int             `json:"step_number"`
	Timing             *timing          `json:"timing"`
	ToolCalls          []toolCall       `json:"tool_calls"`
	Error              *agentError      `json:"error"`
	ModelInputMessages json.RawMessage  `json:"model_input_messages"`
	ModelOutputMessage *json.RawMessage `json:"model_output_message"`
	ModelOutput        json.RawMessage  `json:"model_output"`
	Observations       *string          `json:"observations"`
	ActionOutput       json.RawMessage  `json:"action_output"`
	TokenUsage         *tokenUsage      `json:"token_usage"`
	IsFinalAnswer      bool             `json:"is_final_answer"`
	Plan               *string          `json:"plan"`
	Output             json.RawMessage  `json:"output"`
	SystemPrompt       *string          `json:"system_prompt"`
	// RunResult
	State *string           `json:"state"`
	Steps []json.RawMessage `json:"steps"`

	line int
	keys map[string]bool
}

func (s *step) kind() string {
	switch {
	case s.keys["state"] && s.keys["steps"]:
		return "result"
	case s.keys["task"]:
		return "task"
	case s.keys["step_number"]:
		return "action"
	case s.keys["plan"]:
		return "planning"
	case s.keys["system_prompt"]:
		return "system"
	case s.keys["output"] && len(s.keys) == 1:
		return "final"
	}
	return ""
}

func parseStep(raw []byte, line int) (*step, error) {
	var s step
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, describe(err)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys)
	s.keys = map[string]bool{}
	for k := range keys {
		s.keys[k] = true
	}
	s.line = line
	if s.kind() == "" {
		return nil, fmt.Errorf("object with keys %v: expected a smolagents step dict (TaskStep, ActionStep, PlanningStep, FinalAnswerStep) or a RunResult", sortedKeys(keys))
	}
	return &s, nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) > 8 {
		out = append(out[:8], "…")
	}
	return out
}

func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q: expected %s, got JSON %s: %w", te.Field, te.Type, te.Value, err)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("malformed JSON at byte %d: %w", se.Offset, err)
	}
	return fmt.Errorf("not a step dict: %w", err)
}

// Decode reads smolagents memory steps (a JSON document or JSON Lines) and emits canonical events.
func Decode(r io.Reader, em *ingest.Emitter) error {
	var steps []*step
	var result *step
	add := func(s *step) {
		if s.kind() == "result" {
			result = s
			for i, raw := range s.Steps {
				st, err := parseStep(raw, s.line)
				if err != nil {
					em.Error(s.line, fmt.Errorf("%s: line %d: steps[%d]: %w", Name, s.line, i, err))
					continue
				}
				steps = append(steps, st)
			}
			return
		}
		steps = append(steps, s)
	}
	var doc []byte
	docLine := 0
	firstArray := false
	lr := ingest.NewLineReader(r)
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			em.Error(n, fmt.Errorf("%s: line %d: longer than %d bytes, skipped: %w", Name, n, ingest.MaxLine, err))
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", Name, em.File, err)
		}
		if !utf8.Valid(line) {
			em.Error(n, fmt.Errorf("%s: line %d: invalid UTF-8 (bad bytes replaced by U+FFFD)", Name, n))
			line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		}
		if doc != nil {
			doc = append(append(doc, line...), '\n')
			continue
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if docLine == 0 && !json.Valid(t) && (t[0] == '[' || t[0] == '{') && !final && !bytes.HasSuffix(t, []byte("}")) {
			doc, docLine = append(append([]byte{}, line...), '\n'), n // a pretty-printed document
			continue
		}
		docLine = -1
		if t[0] == '[' {
			firstArray = true
		}
		if err := decodeValue(t, n, add); err != nil {
			var se *json.SyntaxError
			if final && errors.As(err, &se) {
				err = fmt.Errorf("%w: %v", ingest.ErrTornLine, err)
			}
			em.Error(n, fmt.Errorf("%s: line %d: %w", Name, n, err))
		}
	}
	if doc != nil {
		if err := decodeDoc(doc, docLine, add, em); err != nil {
			em.Error(docLine, fmt.Errorf("%s: line %d: %w", Name, docLine, err))
		}
	}
	b := &builder{em: em, st: em.Shared(), dump: result != nil || isArray(doc) || firstArray}
	b.build(steps, result)
	return nil
}

// isArray says whether a document is a JSON array (a memory dump).
func isArray(doc []byte) bool {
	t := bytes.TrimSpace(doc)
	return len(t) > 0 && t[0] == '['
}

func decodeValue(t []byte, n int, add func(*step)) error {
	if t[0] == '[' {
		var arr []json.RawMessage
		if err := json.Unmarshal(t, &arr); err != nil {
			return describe(err)
		}
		for i, raw := range arr {
			s, err := parseStep(raw, n)
			if err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
			add(s)
		}
		return nil
	}
	s, err := parseStep(t, n)
	if err != nil {
		return err
	}
	add(s)
	return nil
}

// decodeDoc reads a pretty-printed document, giving each array element the line it starts on.
func decodeDoc(doc []byte, first int, add func(*step), em *ingest.Emitter) error {
	lineAt := func(off int64) int { return first + bytes.Count(doc[:off], []byte("\n")) }
	t := bytes.TrimSpace(doc)
	if t[0] != '[' {
		return decodeValue(t, first, add)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	if _, err := dec.Token(); err != nil {
		return describe(err)
	}
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		off := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("element %d: %w", i, describe(err))
		}
		ln := lineAt(off + int64(len(doc[off:])-len(bytes.TrimLeft(doc[off:], " \t\r\n,"))))
		s, err := parseStep(raw, ln)
		if err != nil {
			em.Error(ln, fmt.Errorf("%s: line %d: element %d: %w", Name, ln, i, err))
			continue
		}
		add(s)
	}
	return nil
}

type builder struct {
	em      *ingest.Emitter
	st      *ingest.Shared
	session string
	// dump: the input is a whole memory (get_full_steps() list or a RunResult), written after
	// run() returned or raised — not step_callback lines of a run that may still be going on.
	dump bool
}

func secs(f *float64) time.Time {
	if f == nil || *f <= 0 {
		return time.Time{}
	}
	sec := int64(*f)
	t := time.Unix(sec, int64((*f-float64(sec))*1e9)).Round(time.Microsecond).UTC()
	if t.Year() < 1971 || t.Year() > 9999 {
		return time.Time{}
	}
	return t
}

func (b *builder) emit(line int, ev model.Event) {
	ev.SessionID = b.session
	ev.Origin = b.em.At(line)
	b.em.Emit(&ev)
}

// runGroup is one run(): its TaskStep (nil when the dump starts without one) and its steps.
type runGroup struct {
	task  *step
	steps []*step
	final *step
}

func (b *builder) build(steps []*step, result *step) {
	if len(steps) == 0 {
		return
	}
	b.session = "smolagents:" + strings.TrimSuffix(filepath.Base(b.em.File), filepath.Ext(b.em.File))
	var groups []*runGroup
	var cur *runGroup
	var prev *step
	for _, s := range steps {
		switch s.kind() {
		case "system":
			continue
		case "task":
			cur = &runGroup{task: s}
			groups = append(groups, cur)
			continue
		case "final":
			if cur != nil {
				cur.final = s
			}
			// a FinalAnswerStep ends its run(): steps after it (step_callback lines carry no
			// TaskStep) belong to the next run
			cur = nil
			continue
		}
		if cur == nil {
			cur = &runGroup{}
			groups = append(groups, cur)
		}
		// the run stream re-yields the previous action step before a FinalAnswerStep: skip repeats
		if prev != nil && s.kind() == "action" && prev.kind() == "action" && stepNum(s, 0) == stepNum(prev, 0) && sameTiming(s, prev) {
			continue
		}
		cur.steps = append(cur.steps, s)
		prev = s
	}
	if b.st.StartSession(b.session) {
		first := steps[0]
		b.emit(first.line, model.Event{Type: model.SessionStart, TS: firstTime(steps), Source: model.SourceRuntime, Inferred: []string{"ids", "ts"},
			Attrs: map[string]any{"note": "smolagents memory has no ids: the session is the memory (file); steps have timing, nothing else does"}})
	}
	for i, g := range groups {
		var res *step
		if i == len(groups)-1 {
			res = result
		}
		b.emitRun(i+1, g, res, i == len(groups)-1)
	}
}

// messageToolCalls reads the tool_calls of a step's model_output_message.
func messageToolCalls(raw *json.RawMessage) []toolCall {
	if raw == nil {
		return nil
	}
	var m struct {
		ToolCalls []toolCall `json:"tool_calls"`
	}
	if json.Unmarshal(*raw, &m) != nil {
		return nil
	}
	return m.ToolCalls
}

func stepNum(s *step, dflt int) int {
	if s.StepNumber == nil {
		return dflt
	}
	return *s.StepNumber
}

func sameTiming(a, b *step) bool {
	if a.Timing == nil || b.Timing == nil || a.Timing.StartTime == nil || b.Timing.StartTime == nil {
		return a.Timing == nil && b.Timing == nil
	}
	return *a.Timing.StartTime == *b.Timing.StartTime
}

func firstTime(steps []*step) time.Time {
	for _, s := range steps {
		if s.Timing != nil && s.Timing.StartTime != nil {
			return secs(s.Timing.StartTime)
		}
	}
	return time.Time{}
}

func (b *builder) emitRun(n int, g *runGroup, result *step, last bool) {
	line := 0
	if g.task != nil {
		line = g.task.line
	} else if len(g.steps) > 0 {
		line = g.steps[0].line
	}
	runID := b.st.Unique("run", fmt.Sprintf("%s/run-%d", b.session, n))
	start := firstTime(g.steps)
	attrs := map[string]any{}
	if g.task != nil && g.task.Task != nil {
		attrs["task"] = *g.task.Task
	}
	inf := []string{"ids", "ts"}
	if g.task == nil {
		inf = append(inf, "start")
		attrs["note"] = "the dump starts without the TaskStep of this run"
	}
	b.emit(line, model.Event{Type: model.RunStart, TS: start, RunID: runID, Attempt: 1, Source: model.SourceRuntime, Inferred: inf, Attrs: attrs})
	if g.task != nil && g.task.Task != nil {
		b.emit(line, model.Event{Type: model.Message, TS: start, RunID: runID, Role: "user", Text: *g.task.Task, Source: model.SourceClient, Inferred: []string{"ts"}})
	}
	turnID := b.st.Unique("turn", runID+"/turn-1")
	b.emit(line, model.Event{Type: model.TurnStart, TS: start, RunID: runID, TurnID: turnID, Source: model.SourceRuntime, Inferred: []string{"turn", "ts"}})

	var (
		lastEnd   time.Time
		open      bool
		final     bool
		maxSteps  bool
		genErr    *model.ErrorInfo
		lastStep  *step
		planningN int
	)
	for i, s := range g.steps {
		lastStep = s
		var st, en time.Time
		ended := true
		if s.Timing != nil {
			st = secs(s.Timing.StartTime)
			if s.Timing.EndTime == nil {
				ended = false
			} else {
				en = secs(s.Timing.EndTime)
			}
		}
		sattrs := map[string]any{}
		var stepID string
		if s.kind() == "planning" {
			planningN++
			stepID = b.st.Unique("step", fmt.Sprintf("%s/planning-%d", turnID, planningN))
			sattrs["planning"] = true
		} else {
			stepID = b.st.Unique("step", fmt.Sprintf("%s/step-%d", turnID, stepNum(s, i+1)))
			sattrs["step_number"] = stepNum(s, i+1)
		}
		b.emit(s.line, model.Event{Type: model.StepStart, TS: st, RunID: runID, TurnID: turnID, StepID: stepID, Source: model.SourceRuntime, Attrs: sattrs})
		stepOut := model.OutcomeOK
		var stepErr *model.ErrorInfo
		if s.Error != nil {
			stepErr = &model.ErrorInfo{Kind: s.Error.Type, Message: s.Error.Message}
		}
		// Model call: recorded by its output or usage; an ended step with nothing at all is the
		// trace of an AgentGenerationError (raised before it could be stored).
		hasModel := s.ModelOutputMessage != nil && string(*s.ModelOutputMessage) != "null" || len(s.ModelOutput) > 0 && string(s.ModelOutput) != "null" || s.TokenUsage != nil || s.Plan != nil
		emptyEnded := !hasModel && ended && len(s.ToolCalls) == 0 && s.Error == nil && s.kind() == "action"
		if s.Error != nil && s.Error.Type == "AgentGenerationError" || emptyEnded {
			hasModel = true
		}
		if hasModel {
			callID := b.st.Unique("model", stepID+"/model")
			mst := model.Event{Type: model.ModelStart, TS: st, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Source: model.SourceModel, Inferred: []string{"ts"}}
			if in := rawPayload(s.ModelInputMessages); in != "" {
				mst.Attrs = map[string]any{model.AttrInput: in}
			}
			b.emit(s.line, mst)
			if ended {
				ev := model.Event{Type: model.ModelEnd, TS: en, RunID: runID, TurnID: turnID, StepID: stepID, CallID: callID, Source: model.SourceModel, Outcome: model.OutcomeOK, Inferred: []string{"ts"}}
				if s.TokenUsage != nil {
					ev.Usage = &model.Usage{InputTokens: s.TokenUsage.InputTokens, OutputTokens: s.TokenUsage.OutputTokens}
				}
				out := rawPayload(s.ModelOutput)
				if s.ModelOutputMessage != nil && out == "" {
					out = rawPayload(*s.ModelOutputMessage)
				}
				if out != "" {
					ev.Attrs = map[string]any{model.AttrOutput: out}
				}
				switch {
				case s.Error != nil && s.Error.Type == "AgentGenerationError":
					ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: s.Error.Message}
				case emptyEnded:
					ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "model", Message: "the step ended with no model output, tool call or stored error: an AgentGenerationError raised out of run()"}
					ev.Inferred = append(ev.Inferred, "outcome")
				case s.Error != nil && s.Error.Type == "AgentParsingError":
					if ev.Attrs == nil {
						ev.Attrs = map[string]any{}
					}
					ev.Attrs["parse_error"] = s.Error.Message
				}
				if ev.Outcome == model.OutcomeError {
					genErr, stepOut, stepErr = ev.Error, model.OutcomeError, ev.Error
				}
				b.emit(s.line, ev)
			}
		}
		toolErr := s.Error != nil && (s.Error.Type == "AgentToolExecutionError" || s.Error.Type == "AgentToolCallError" || s.Error.Type == "AgentExecutionError")
		calls, fromMsg := s.ToolCalls, false
		if len(calls) == 0 && toolErr {
			// ToolCallingAgent stores tool_calls only after they all ran: when one raised, the
			// step's tool_calls is [] and the calls it attempted are the model message's
			calls, fromMsg = messageToolCalls(s.ModelOutputMessage), true
		}
		for j, c := range calls {
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("%s/call-%d", stepID, j+1)
			}
			id = b.st.Unique("tool", id)
			a := map[string]any{}
			if c.Function.Arguments != nil {
				a["args"] = c.Function.Arguments
			}
			inf := []string{"ts"}
			if fromMsg {
				inf = append(inf, "start")
				a["note"] = "the step's tool_calls is empty (a call raised): the call is the one the model message requested"
			}
			b.emit(s.line, model.Event{Type: model.ToolStart, TS: st, RunID: runID, TurnID: turnID, StepID: stepID, CallID: id, Name: c.Function.Name, Source: model.SourceRuntime, Inferred: inf, Attrs: a})
			if !ended {
				continue
			}
			ev := model.Event{Type: model.ToolEnd, TS: en, RunID: runID, TurnID: turnID, StepID: stepID, CallID: id, Name: c.Function.Name, Source: model.SourceTool, Outcome: model.OutcomeOK, Inferred: []string{"ts"}}
			if s.Observations != nil {
				ev.Attrs = map[string]any{"observations": *s.Observations}
				if len(calls) == 1 { // the step's observations are its one call's result
					ev.Attrs[model.AttrResult] = model.CutText(*s.Observations, model.PayloadKeepMax)
				}
			}
			if toolErr {
				ev.Outcome, ev.Error = model.OutcomeError, &model.ErrorInfo{Kind: "tool", Message: s.Error.Message}
				if len(calls) > 1 {
					ev.Inferred = append(ev.Inferred, "outcome")
				}
			}
			b.emit(s.line, ev)
		}
		if s.Error != nil && s.Error.Type == "AgentMaxStepsError" {
			maxSteps = true
		}
		if !ended {
			open = true
			if i < len(g.steps)-1 {
				b.em.Error(s.line, fmt.Errorf("%s: line %d: step without end_time followed by more steps; left open", Name, s.line))
			}
			continue
		}
		if stepErr != nil && stepOut == model.OutcomeOK && !toolErr && s.Error.Type != "AgentMaxStepsError" {
			stepOut = model.OutcomeError // parsing/execution errors of the model's action
		}
		if s.Error != nil && (s.Error.Type == "AgentMaxStepsError" || toolErr) {
			// the forced final answer step succeeded (the limit is the run's stop reason), or the
			// error belongs to the tool calls (returned to the model)
			stepErr = nil
		}
		b.emit(s.line, model.Event{Type: model.StepEnd, TS: en, RunID: runID, TurnID: turnID, StepID: stepID, Source: model.SourceRuntime, Outcome: stepOut, Error: stepErr})
		lastEnd = en
		if s.IsFinalAnswer {
			final = true
		}
	}
	if open {
		return
	}
	endLine := line
	if lastStep != nil {
		endLine = lastStep.line
	}
	var status model.RunStatus
	var stop model.StopReason
	var e *model.ErrorInfo
	var inferred []string
	state := ""
	if result != nil && result.State != nil {
		state = *result.State
		if result.Timing != nil && result.Timing.EndTime != nil {
			lastEnd = secs(result.Timing.EndTime)
		}
	}
	switch {
	case maxSteps || state == "max_steps_error":
		status, stop, e = model.StatusFailed, model.StopMaxSteps, &model.ErrorInfo{Kind: "AgentMaxStepsError", Message: "Reached max steps."}
	case genErr != nil:
		status, stop, e = model.StatusFailed, model.StopModelError, genErr
		if lastStep != nil && lastStep.Error == nil {
			inferred = []string{"status", "stop_reason"}
		}
	case final || state == "success" || g.final != nil:
		status, stop = model.StatusCompleted, model.StopGoalReached
	case b.dump || !last:
		// every step ended, no final answer, no error, and the memory was dumped after run()
		// (or another task followed): run() stopped between steps without recording why — the
		// agent.interrupt() path, which raises AgentError("Agent interrupted.")
		status, stop = model.StatusCancelled, model.StopCancelled
		e = &model.ErrorInfo{Kind: "cancelled", Message: "the run stopped between steps with no final answer and no error: agent.interrupt()"}
		inferred = []string{"status", "stop_reason"}
	default:
		// step_callback lines of a run with no final answer yet: still going on (or interrupted;
		// interrupt() leaves no record): open
		return
	}
	tout := model.OutcomeOK
	switch status {
	case model.StatusCancelled:
		tout = model.OutcomeCancelled
	case model.StatusFailed:
		tout = model.OutcomeError
	}
	b.emit(endLine, model.Event{Type: model.TurnEnd, TS: lastEnd, RunID: runID, TurnID: turnID, Source: model.SourceRuntime, Outcome: tout, StopReason: stop, Error: e, Inferred: []string{"turn"}})
	b.emit(endLine, model.Event{Type: model.RunEnd, TS: lastEnd, RunID: runID, Status: status, StopReason: stop, Error: e, Source: model.SourceRuntime, Inferred: inferred})
}

// rawPayload is a JSON value of a step as payload text: a string's text, another value as it
// was written, "" for none or null (cut to model.PayloadKeepMax).
func rawPayload(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return model.CutText(s, model.PayloadKeepMax)
	}
	return model.CutText(string(raw), model.PayloadKeepMax)
}
