package cmd

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model/explain"
	renderexplain "github.com/lifeline-dev/lifeline/render/explain"
)

// TestExplain runs lifeline explain as a user does: the topic list, every topic in both
// languages and every format, the language from the locale, and the errors.
func TestExplain(t *testing.T) {
	out, _, code := lifeline(t, "", "explain")
	if code != 0 {
		t.Fatalf("explain: exit %d", code)
	}
	for _, name := range explain.Names() {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("explain does not list %s:\n%s", name, out)
		}
	}
	for _, topic := range explain.Names() {
		for _, lang := range explain.Languages {
			for _, format := range renderexplain.Formats {
				out, errOut, code := lifeline(t, "", "explain", topic, "--lang", lang, "--format", format)
				if code != 0 || len(out) < 1000 {
					t.Errorf("explain %s --lang %s --format %s: exit %d, %d bytes\n%s", topic, lang, format, code, len(out), errOut)
				}
			}
		}
	}
	var doc struct{ Topic, Lang string }
	out, _, _ = lifeline(t, "", "explain", "steer", "--format", "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Topic != "steer-follow-up" {
		t.Errorf("explain steer --format json: %v, topic %q", err, doc.Topic)
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{{[]string{"LANG=zh_CN.UTF-8"}, "取消的三个层次"}, {[]string{"LC_ALL=en_US.UTF-8", "LANG=zh_CN.UTF-8"}, "The three layers of cancellation"}, {[]string{"LANG=C"}, "The three layers of cancellation"}} {
		c := exec.Command(binary, "explain", "cancellation")
		c.Dir = ".."
		c.Env = append([]string{"PATH=/usr/bin:/bin"}, tc.env...)
		got, err := c.Output()
		if err != nil || !strings.HasPrefix(string(got), tc.want) {
			t.Errorf("%v: %v\n%.200s", tc.env, err, got)
		}
	}
	for _, args := range [][]string{{"explain", "nothing"}, {"explain", "turn", "--lang", "fr"}, {"explain", "turn", "--format", "waterfall"}, {"explain", "turn", "run"}} {
		if _, errOut, code := lifeline(t, "", args...); code != 1 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a message", args, code, errOut)
		}
	}
	if out, code := onTerminal(t, "explain", "turn", "--format", "html"); code != 1 || !strings.Contains(out, "explain.html") {
		t.Errorf("explain --format html at a terminal: exit %d\n%.300s", code, out)
	}
	out, _, _ = lifeline(t, "", "__complete", "explain", "st")
	for _, want := range []string{"step", "statuses", "steer-follow-up", "stop-reasons"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("completion of explain st lacks %s:\n%s", want, out)
		}
	}
}
