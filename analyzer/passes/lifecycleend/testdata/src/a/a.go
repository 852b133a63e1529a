package a

import (
	"context"
	"errors"

	"fw"
	"go.opentelemetry.io/otel/trace"
)

func earlyReturn(ctx context.Context, m fw.Model) error {
	ctx, step := fw.StartStep(ctx, "step") // want `step started by fw.StartStep is not ended on every path: the span stays open`
	if _, err := m.Generate(ctx, nil); err != nil {
		return err
	}
	step.End()
	return nil
}

func deferred(ctx context.Context, m fw.Model) error {
	ctx, step := fw.StartStep(ctx, "step")
	defer step.End()
	_, err := m.Generate(ctx, nil)
	return err
}

func otel(ctx context.Context, tr trace.Tracer, fail bool) error {
	ctx, span := tr.Start(ctx, "turn") // want `span started by tr.Start is not ended on every path`
	if fail {
		return errors.New("no")
	}
	span.End()
	return nil
}

func discarded(ctx context.Context) {
	_, _ = fw.StartStep(ctx, "step") // want `the span started by fw.StartStep is discarded`
}

func handedOff(ctx context.Context) *fw.Span {
	_, s := fw.StartStep(ctx, "step")
	return s
}
