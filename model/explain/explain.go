// Package explain is lifeline's teaching view of its own model: for each topic of docs/model.md
// (the layers, statuses, stop reasons, steer and follow-up, cancellation, approval, crash and
// resume, retry lineage) it holds the definition in English and Chinese, draws the topic live
// from a reference-runtime scenario (the piece of the projected tree that shows it) and lists,
// from the built-in profiles, how each supported framework names and implements it.
//
// The definitions are embedded texts (texts/<lang>/<topic>.md, distilled from docs/model.md and
// the Chinese course material it comes from); the framework table is generated from
// frameworks.json (a declarative table of each framework's words, after the project's framework
// vocabulary) joined with the profiles' rules and vocabulary, each cited at its source line.
// The model's terms stay identifiers in both languages (Run, Turn, Step, awaiting_approval).
package explain

import (
	"context"
	"embed"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Languages of the texts, the default first.
var Languages = []string{"en", "zh"}

// Topic is one thing explain teaches.
type Topic struct {
	// Name is the topic's command-line name (session, stop-reasons, …).
	Name string
	// Aliases are other names that select it (status, steer, cancel, …).
	Aliases []string
	// Section is the anchor of the docs/model.md section the definition comes from.
	Section string
	// Concept is the key of the topic's row group in frameworks.json.
	Concept string
	// Drawings are the reference-runtime scenarios that show it, with the piece to keep.
	Drawings []DrawingSpec
}

// DrawingSpec says which scenario draws a topic and which piece of its tree to show.
type DrawingSpec struct {
	// Scenario names a model/runtime scenario.
	Scenario string
	// Depth is the deepest layer kept: "run", "turn", "step" or "call".
	Depth string
	// Facts are the kinds of fact read from the scenario besides the tree (see Fact).
	Facts []string
}

// topics lists every topic in teaching order.
var topics = []Topic{
	{Name: "session", Section: "layers-by-time-scale", Concept: "session", Drawings: []DrawingSpec{{Scenario: "retry", Depth: "run", Facts: []string{FactLineage}}}},
	{Name: "run", Section: "layers-by-time-scale", Aliases: []string{"runs"}, Concept: "run", Drawings: []DrawingSpec{{Scenario: "approval", Depth: "turn", Facts: []string{FactHistory}}}},
	{Name: "turn", Section: "layers-by-time-scale", Aliases: []string{"turns"}, Concept: "turn", Drawings: []DrawingSpec{{Scenario: "hook", Depth: "call"}}},
	{Name: "step", Section: "layers-by-time-scale", Aliases: []string{"steps"}, Concept: "step", Drawings: []DrawingSpec{{Scenario: "happy", Depth: "call"}}},
	{Name: "connection", Section: "layers-by-time-scale", Aliases: []string{"connections", "reconnect"}, Concept: "connection", Drawings: []DrawingSpec{{Scenario: "reconnect", Depth: "turn", Facts: []string{FactConnections, FactHistory}}}},
	{Name: "statuses", Section: "run-status-and-stop-reason", Aliases: []string{"status", "transitions"}, Concept: "statuses", Drawings: []DrawingSpec{
		{Scenario: "approval", Depth: "run", Facts: []string{FactHistory}},
		{Scenario: "cancel-run", Depth: "run", Facts: []string{FactHistory}}}},
	{Name: "stop-reasons", Section: "run-status-and-stop-reason", Aliases: []string{"stop-reason", "priority"}, Concept: "stop_reasons", Drawings: []DrawingSpec{
		{Scenario: "max-steps", Depth: "turn", Facts: []string{FactHistory}},
		{Scenario: "timeout", Depth: "call", Facts: []string{FactHistory}}}},
	{Name: "steer-follow-up", Section: "layers-by-time-scale", Aliases: []string{"steer", "follow-up", "followup", "steering"}, Concept: "steer_follow_up", Drawings: []DrawingSpec{
		{Scenario: "steer", Depth: "step", Facts: []string{FactInputs}},
		{Scenario: "follow-up", Depth: "step", Facts: []string{FactInputs}}}},
	{Name: "cancellation", Section: "layered-failure-cancellation-resume", Aliases: []string{"cancel", "cancelled", "abort"}, Concept: "cancellation", Drawings: []DrawingSpec{
		{Scenario: "cancel-model-call", Depth: "call"},
		{Scenario: "cancel-turn", Depth: "call", Facts: []string{FactHistory}},
		{Scenario: "cancel-run", Depth: "call", Facts: []string{FactHistory}}}},
	{Name: "approval", Section: "run-status-and-stop-reason", Aliases: []string{"waiting", "awaiting_approval", "wait"}, Concept: "approval", Drawings: []DrawingSpec{{Scenario: "approval", Depth: "call", Facts: []string{FactHistory}}}},
	{Name: "crash-resume", Section: "layered-failure-cancellation-resume", Aliases: []string{"crash", "resume", "idempotency"}, Concept: "crash_resume", Drawings: []DrawingSpec{{Scenario: "crash-resume", Depth: "call", Facts: []string{FactRecovery, FactSideEffects}}}},
	{Name: "retry", Section: "identity", Aliases: []string{"retry-lineage", "lineage", "attempt"}, Concept: "retry", Drawings: []DrawingSpec{{Scenario: "retry", Depth: "turn", Facts: []string{FactLineage}}}},
}

// Topics returns every topic in teaching order.
func Topics() []Topic { return slices.Clone(topics) }

// Lookup returns the topic a name or alias selects (case-insensitive, "_" and "-" alike).
func Lookup(name string) (Topic, bool) {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	n := norm(name)
	for _, t := range topics {
		if norm(t.Name) == n {
			return t, true
		}
		for _, a := range t.Aliases {
			if norm(a) == n {
				return t, true
			}
		}
	}
	return Topic{}, false
}

// Names lists the topics' names.
func Names() []string {
	out := make([]string, len(topics))
	for i, t := range topics {
		out[i] = t.Name
	}
	return out
}

// LangFromEnv picks the language of the texts from the locale, as POSIX ranks it: the first of
// LC_ALL, LC_MESSAGES and LANG that is set decides; "zh…" gives "zh", anything else "en".
func LangFromEnv(getenv func(string) string) string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			if strings.HasPrefix(strings.ToLower(s), "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// ValidLang reports whether lang is one of Languages.
func ValidLang(lang string) bool { return slices.Contains(Languages, lang) }

// Doc is one topic explained in one language: what the renderers draw.
type Doc struct {
	Topic string `json:"topic"`
	Lang  string `json:"lang"`
	Title string `json:"title"`
	// Summary is the topic's one-line summary (the first paragraph of the definition).
	Summary string `json:"summary"`
	// Definition is the topic's definition, paragraphs of Markdown-light text: `code` spans and
	// lines starting "- " for list items, nothing else.
	Definition []string `json:"definition"`
	// Source names the document section the definition is distilled from
	// ("docs/model.md#identity").
	Source string `json:"source"`
	// Drawings are the live drawings, one per scenario.
	Drawings []Drawing `json:"drawings"`
	// Frameworks is the generated framework table.
	Frameworks []FrameworkRow `json:"frameworks"`
}

// Summary is one topic's name, title and summary line, for the topic list.
type Summary struct {
	Topic   string   `json:"topic"`
	Aliases []string `json:"aliases,omitempty"`
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
}

// List returns every topic's summary in lang.
func List(lang string) ([]Summary, error) {
	if !ValidLang(lang) {
		return nil, fmt.Errorf("unknown language %q (%s)", lang, strings.Join(Languages, " or "))
	}
	var out []Summary
	for _, t := range topics {
		tx, err := text(t.Name, lang)
		if err != nil {
			return nil, err
		}
		out = append(out, Summary{Topic: t.Name, Aliases: t.Aliases, Title: tx.title, Summary: tx.paras[0]})
	}
	return out, nil
}

// Build explains the named topic in lang: its definition, its live drawings (each scenario run
// on the reference runtime now) and its framework table generated from fws.
func Build(ctx context.Context, name, lang string, fws []Framework) (*Doc, error) {
	t, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown topic %q; topics: %s", name, strings.Join(Names(), ", "))
	}
	if !ValidLang(lang) {
		return nil, fmt.Errorf("unknown language %q (%s)", lang, strings.Join(Languages, " or "))
	}
	tx, err := text(t.Name, lang)
	if err != nil {
		return nil, err
	}
	d := &Doc{Topic: t.Name, Lang: lang, Title: tx.title, Summary: tx.paras[0], Definition: tx.paras, Source: "docs/model.md#" + t.Section}
	for i, spec := range t.Drawings {
		dr, err := Draw(ctx, spec)
		if err != nil {
			return nil, fmt.Errorf("topic %s: %w", t.Name, err)
		}
		if i < len(tx.captions) {
			dr.Caption = tx.captions[i]
		}
		d.Drawings = append(d.Drawings, *dr)
	}
	rows, err := frameworkRows(t.Concept, lang, fws)
	if err != nil {
		return nil, fmt.Errorf("topic %s: %w", t.Name, err)
	}
	d.Frameworks = rows
	return d, nil
}

//go:embed texts
var texts embed.FS

// topicText is one embedded text: "# title", paragraphs separated by blank lines, and after a
// line "## drawings" one caption paragraph per drawing.
type topicText struct {
	title    string
	paras    []string
	captions []string
}

func text(topic, lang string) (topicText, error) {
	name := "texts/" + lang + "/" + topic + ".md"
	data, err := texts.ReadFile(name)
	if err != nil {
		return topicText{}, fmt.Errorf("no %s text for topic %s: %w", lang, topic, err)
	}
	var tx topicText
	body, found := strings.CutPrefix(string(data), "# ")
	if !found {
		return tx, fmt.Errorf("%s:1: want a \"# title\" line", name)
	}
	tx.title, body, _ = strings.Cut(body, "\n")
	def, caps, _ := strings.Cut(body, "\n## drawings\n")
	tx.paras = paragraphs(def)
	tx.captions = paragraphs(caps)
	if len(tx.paras) == 0 {
		return tx, fmt.Errorf("%s: no definition", name)
	}
	return tx, nil
}

// paragraphs splits s at blank lines and joins each paragraph's lines; a list item ("- …")
// stays a paragraph of its own.
func paragraphs(s string) []string {
	var out []string
	var cur string
	flush := func() {
		if cur != "" {
			out = append(out, cur)
			cur = ""
		}
	}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "- "):
			flush()
			cur = line
		case cur == "":
			cur = line
		default:
			cur = join(cur, line)
		}
	}
	flush()
	return out
}

// join joins two wrapped lines: with a space, except where either side is Chinese (which
// puts none between words).
func join(a, b string) string {
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	if wide(last) || wide(first) {
		return a + b
	}
	return a + " " + b
}

func wide(r rune) bool { return r >= 0x2E80 && !(r >= 0xFF61 && r <= 0xFFDC) }
