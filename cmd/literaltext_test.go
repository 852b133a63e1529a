package cmd

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
)

// TestLiteralTextsRenderLikeStrings: reading a canonical log keeps long attribute texts as their
// JSON literal (model.JSONText); every output format must be byte for byte what it is when the
// same log is decoded into plain strings.
func TestLiteralTextsRenderLikeStrings(t *testing.T) {
	files, _ := filepath.Glob("../render/internal/rendertest/testdata/scenarios/demo-*.jsonl")
	long := strings.Repeat("words and more words ", 4)
	var log strings.Builder
	log.WriteString(`{"v":1,"seq":1,"ts":"2026-11-29T08:00:00Z","type":"session/start","session_id":"s"}` + "\n")
	log.WriteString(`{"v":1,"seq":2,"ts":"2026-11-29T08:00:00Z","type":"run/start","session_id":"s","run_id":"r"}` + "\n")
	log.WriteString(`{"v":1,"seq":3,"ts":"2026-11-29T08:00:00Z","type":"turn/start","session_id":"s","run_id":"r","turn_id":"t"}` + "\n")
	log.WriteString(`{"v":1,"seq":4,"ts":"2026-11-29T08:00:00Z","type":"step/start","session_id":"s","run_id":"r","turn_id":"t","step_id":"st"}` + "\n")
	log.WriteString(`{"v":1,"seq":5,"ts":"2026-11-29T08:00:01Z","type":"tool/start","session_id":"s","run_id":"r","turn_id":"t","step_id":"st","call_id":"c","name":"x","attrs":{"args":"` + long + `\"quoted\" \\ \n\t é \u0001 \u003cb\u003e"}}` + "\n")
	log.WriteString(`{"v":1,"seq":6,"ts":"2026-11-29T08:00:02Z","type":"tool/end","session_id":"s","run_id":"r","turn_id":"t","step_id":"st","call_id":"c","outcome":"ok","attrs":{"result":"` + long + `","raw":"` + long + `<not kept>","nested":{"list":["` + long + `"]}}}` + "\n")
	own := filepath.Join(t.TempDir(), "texts.jsonl")
	if err := os.WriteFile(own, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, own)
	if len(files) < 2 {
		t.Fatal("no scenario logs found")
	}
	literal := 0
	for _, file := range files {
		kept := model.NewProjector()
		if _, err := tracer.Read([]string{file}, tracer.Options{Format: "canonical"}, func(ev *model.Event) {
			for _, v := range ev.Attrs {
				if _, ok := v.(model.JSONText); ok {
					literal++
				}
			}
			kept.Apply(ev)
		}); err != nil {
			t.Fatal(err)
		}
		plain := model.NewProjector()
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, model.MaxLineBytes)
		for n := 1; sc.Scan(); n++ {
			ev, err := model.DecodeLine(sc.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			ev.Origin = &model.Origin{File: file, Line: n} // as the tracer names it
			plain.Apply(&ev)
		}
		f.Close()
		a, b := kept.Tree(), plain.Tree()
		for _, format := range renderFormatNames() {
			var x, y bytes.Buffer
			if err := renderTree(&x, format, a, nil, renderOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := renderTree(&y, format, b, nil, renderOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(x.Bytes(), y.Bytes()) {
				t.Errorf("%s, --format %s: output differs when texts are kept as literals", filepath.Base(file), format)
			}
		}
	}
	if literal == 0 {
		t.Fatal("no attribute text was kept as a literal: the test tests nothing")
	}
}
