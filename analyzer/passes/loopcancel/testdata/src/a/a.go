package a

import (
	"context"
	"time"

	"fw"
)

func noCheck(ctx context.Context, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ { // want `turn loop never checks cancellation between steps: a cancelled run keeps calling the model until maxSteps is reached`
		if _, err := m.Generate(ctx, nil); err != nil {
			return err
		}
	}
	return fw.ErrMaxSteps
}

func checks(ctx context.Context, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Generate(ctx, nil)
	}
	return nil
}

func selects(ctx context.Context, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		default:
		}
		fw.Complete(ctx, "x")
	}
	return nil
}

func recursion(ctx context.Context, turn, max int) error { // want `turn recursion never checks cancellation`
	if turn >= max {
		return fw.ErrMaxSteps
	}
	fw.Complete(ctx, "x")
	return recursion(ctx, turn+1, max)
}

func noContext(m fw.Model) {
	for i := 0; i < 3; i++ {
		m.Generate(context.Background(), nil)
	}
}

func unbounded(ctx context.Context) {
	for { // want `turn loop never checks cancellation between steps: a cancelled run keeps calling the model until the model stops asking for tools`
		fw.Complete(ctx, "x")
	}
}

// retrySleep retries one model call with a pause: a retry loop, not a turn loop.
func retrySleep(ctx context.Context, m fw.Model, maxRetries int) (*fw.Message, error) {
	var last error
	for attempt := 0; attempt <= maxRetries; attempt++ { // want `retry loop never checks cancellation between attempts: a cancelled run keeps retrying the model call \(and waiting between attempts\) until maxRetries is reached`
		out, err := m.Generate(ctx, nil)
		if err != nil {
			last = err
			time.Sleep(time.Second)
			continue
		}
		return out, nil
	}
	return nil, last
}

// retryOnSuccess leaves the loop when the call succeeds: a retry loop of maxRetries attempts
// that never waits, so a cancelled context fails each attempt at once and the loop ends:
// nothing to report.
func retryOnSuccess(ctx context.Context, maxRetries int) (string, error) {
	var err error
	for i := 0; i < maxRetries; i++ {
		var out string
		out, err = fw.Complete(ctx, "x")
		if err == nil {
			return out, nil
		}
	}
	return "", err
}

// retryCancellable waits with a select on ctx.Done(): nothing to report.
func retryCancellable(ctx context.Context, m fw.Model, maxRetries int) (*fw.Message, error) {
	for attempt := 0; attempt < maxRetries; attempt++ {
		out, err := m.Generate(ctx, nil)
		if err == nil {
			return out, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, fw.ErrMaxSteps
}

// turnWithTools calls tools and sleeps: still a turn loop.
func turnWithTools(ctx context.Context, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ { // want `^turn loop never checks cancellation between steps`
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return err
		}
		for _, tc := range msg.ToolCalls {
			fw.RunTool(ctx, tc.Name)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// backoffOnly observes cancellation only while waiting to retry a failed model call: the
// iterations that succeed never pass a check.
func backoffOnly(ctx context.Context, m fw.Model, tools map[string]func(string) string, maxSteps int) (string, error) {
	var msgs []fw.Message
	for i := 0; i < maxSteps; i++ { // want `turn loop never checks cancellation between steps`
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		for _, tc := range msg.ToolCalls {
			msgs = append(msgs, fw.Message{Text: tools[tc.Name](tc.Args)})
		}
	}
	return "", fw.ErrMaxSteps
}

// CallContext carries the run's context for the calls of one step.
type CallContext struct {
	Ctx  context.Context
	Tool string
}

// carried has no context parameter, but its call context carries one: the loop could check it.
func carried(cc CallContext, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ { // want `turn loop never checks cancellation between steps: a cancelled run keeps calling the model until maxSteps is reached`
		if _, err := m.Generate(cc.Ctx, nil); err != nil {
			return err
		}
	}
	return nil
}

// carriedChecked checks the carried context.
func carriedChecked(cc *CallContext, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		if err := cc.Ctx.Err(); err != nil {
			return err
		}
		m.Generate(cc.Ctx, nil)
	}
	return nil
}

// InvocationContext is a framework's context for one invocation: a context.Context too.
type InvocationContext interface {
	context.Context
	AgentName() string
}

func invocationNoCheck(ctx InvocationContext, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ { // want `turn loop never checks cancellation between steps`
		if _, err := m.Generate(ctx, nil); err != nil {
			return err
		}
	}
	return fw.ErrMaxSteps
}

func invocationChecks(ctx InvocationContext, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Generate(ctx, nil)
	}
	return nil
}
