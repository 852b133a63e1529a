//go:build cgo

package srcir

import (
	"strings"
	"testing"
)

// TestOwnInterrupt: an interruption the run computed itself is no cancellation check, one read
// from outside is. @genkit-ai/ai@1.42.0 src/generate/action.ts:378-383 and
// resolve-tool-requests.ts:382-403: a flag the tools' callback raises (let interrupted =
// false; … interrupted = true) and a helper's result (const { interruptedResponse } = await
// resolveResumeOption(...)) are a pause a tool asked for; a flag read from an event
// (interrupted = this.interruptEvent.isSet()) or a field (this.interruptRequested) is a request
// to cancel.
func TestOwnInterrupt(t *testing.T) {
	prog := buildSrc(t, "run.ts", `
async function resolveResume(parts: any[]): Promise<{ interruptedResponse?: any }> {
  let interrupted = false;
  await Promise.all(parts.map(async (p) => { if (p.interrupt) { interrupted = true; } }));
  if (interrupted) {
    return { interruptedResponse: parts };
  }
  return {};
}

export class Runner {
  interruptEvent: any;
  interruptRequested = false;
  async own(parts: any[]) {
    const { interruptedResponse } = await resolveResume(parts);
    if (interruptedResponse) {
      throw new Error("interrupted during a restart");
    }
  }
  async fromEvent() {
    const interrupted = this.interruptEvent.isSet();
    if (interrupted) {
      throw new Error("interrupted");
    }
  }
  async fromField() {
    if (this.interruptRequested) {
      throw new Error("interrupted");
    }
  }
}
`)
	want := map[string]bool{"resolveResume": false, "Runner.own": false, "Runner.fromEvent": true, "Runner.fromField": true}
	for _, f := range prog.Funcs {
		for name, checks := range want {
			if !strings.HasSuffix(f.Name, "."+name) {
				continue
			}
			got := false
			for _, c := range f.Cancels {
				got = got || c.Kind != "call"
			}
			if got != checks {
				t.Errorf("%s: cancellation check %v, want %v (%+v)", name, got, checks, f.Cancels)
			}
			delete(want, name)
		}
	}
	if len(want) > 0 {
		t.Errorf("functions not found: %v", want)
	}
}
