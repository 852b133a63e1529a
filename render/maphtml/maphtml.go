// Package maphtml renders a lifecycle map (model.Map) as one self-contained HTML page in the
// visual language of the timeline page (render/html: its palette, fonts and layer colours): each
// run entry as a flow of its turn loops (bound, what happens at the bound, cancellation, model
// and tool call sites) into its exits, every element with its source line beside it
// (syntax-highlighted) and its confidence. With coverage (the Taken fields a trace join fills)
// every exit, bound and call site is coloured by how many runs took it, and clicking an exit
// lists the runs that left through it, each linked to its timeline.
//
// Like the timeline page, it needs no network (inline CSS and script, a Content-Security-Policy
// that forbids loading anything), carries the map as JSON in a <script type="application/json">
// element with <, >, & and U+2028/U+2029 escaped, and its script puts text from the code into
// the page only with textContent: a file or function named <script> stays text.
package maphtml

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	renderhtml "github.com/lifeline-dev/lifeline/render/html"
	"github.com/lifeline-dev/lifeline/render/internal/view"
)

// Options tune the page.
type Options struct {
	// Title is shown in the header and the browser tab; "lifecycle map of PACKAGES" if empty.
	Title string
	// Timeline is the address of the timeline page of the joined traces (lifeline timeline
	// --format html), relative to the map page or absolute; a run listed under an exit links
	// to it as Timeline#search=RUN_ID, which opens the timeline filtered to that run. Empty: the
	// run ids are listed without links.
	Timeline string
}

//go:embed assets/page.html
var pageHTML string

//go:embed assets/style.css
var styleCSS string

//go:embed assets/app.js
var appJS string

var page = func() (p struct{ head, mid, tail string }) {
	full := strings.Replace(pageHTML, "/*STYLE*/", renderhtml.Palette()+styleCSS, 1)
	full = strings.Replace(full, "/*APP*/", appJS, 1)
	h, rest, ok1 := strings.Cut(full, "{{TITLE}}")
	m, t, ok2 := strings.Cut(rest, "{{DATA}}")
	if !ok1 || !ok2 {
		panic("render/maphtml: page template lacks {{TITLE}} or {{DATA}}")
	}
	p.head, p.mid, p.tail = h, m, t
	return p
}()

// Render writes m as one self-contained HTML page to w.
func Render(w io.Writer, m *model.Map, opts Options) error {
	if m == nil {
		m = &model.Map{}
	}
	data, err := Data(m, opts)
	if err != nil {
		return err
	}
	title := opts.Title
	if title == "" {
		title = "lifecycle map of " + strings.Join(m.Packages, ", ")
	}
	var out bytes.Buffer
	out.WriteString(page.head)
	out.WriteString(html.EscapeString(strings.NewReplacer("\u2028", " ", "\u2029", " ").Replace(view.Clean(title))))
	out.WriteString(page.mid)
	out.Write(data)
	out.WriteString(page.tail)
	if _, err := w.Write(out.Bytes()); err != nil {
		return fmt.Errorf("writing html map: %w", err)
	}
	return nil
}

type payload struct {
	Title    string    `json:"title"`
	Packages []string  `json:"packages"`
	Profiles []string  `json:"profiles,omitempty"`
	Terms    []string  `json:"terms,omitempty"`
	Entries  []entry   `json:"entries"`
	Coverage bool      `json:"coverage"`
	MaxRuns  int       `json:"max_runs"`
	Timeline string    `json:"timeline,omitempty"`
	Loops    []loop    `json:"loops"`
	Totals   totalsRec `json:"totals"`
}

type totalsRec struct {
	Entries, Loops, Exits, ExitsTaken int
}

type cov struct {
	Runs   int      `json:"runs"`
	RunIDs []string `json:"run_ids,omitempty"`
}

type entry struct {
	Func     string   `json:"func"`
	Pos      string   `json:"pos"`
	Source   string   `json:"source,omitempty"`
	Conf     string   `json:"conf"`
	Rule     string   `json:"rule,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	// Loops index payload.Loops: a loop reached from several entries is drawn once per entry
	// but stored once.
	Loops []int    `json:"loops"`
	Exits []exit   `json:"exits"`
	IDs   []idSite `json:"ids,omitempty"`
}

type loop struct {
	Kind      string   `json:"kind"`
	Func      string   `json:"func"`
	Pos       string   `json:"pos"`
	Source    string   `json:"source,omitempty"`
	Conf      string   `json:"conf"`
	Evidence  []string `json:"evidence,omitempty"`
	Bound     *bound   `json:"bound,omitempty"`
	OnBound   *onBound `json:"on_bound,omitempty"`
	Cancel    bool     `json:"cancel"`
	CancelPos string   `json:"cancel_pos,omitempty"`
	Parallel  bool     `json:"parallel"`
	Model     []site   `json:"model"`
	Tools     []site   `json:"tools"`
	Taken     *cov     `json:"taken,omitempty"`
}

type bound struct {
	Expr       string `json:"expr"`
	Default    string `json:"default,omitempty"`
	DefaultPos string `json:"default_pos,omitempty"`
	DefaultEnv string `json:"default_env,omitempty"`
	Optional   bool   `json:"optional,omitempty"`
	Pos        string `json:"pos"`
	Source     string `json:"source,omitempty"`
	Taken      *cov   `json:"taken,omitempty"`
}

type onBound struct {
	Kind       string `json:"kind"`
	Value      string `json:"value,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	Pos        string `json:"pos"`
	Source     string `json:"source,omitempty"`
	Taken      *cov   `json:"taken,omitempty"`
}

type site struct {
	Callee   string   `json:"callee"`
	Pos      string   `json:"pos"`
	Source   string   `json:"source,omitempty"`
	Via      []string `json:"via,omitempty"`
	Parallel bool     `json:"parallel,omitempty"`
	Conf     string   `json:"conf"`
	Taken    *cov     `json:"taken,omitempty"`
}

type exit struct {
	Pos        string `json:"pos"`
	Source     string `json:"source,omitempty"`
	Outcome    string `json:"outcome"`
	StopReason string `json:"stop_reason,omitempty"`
	Detail     string `json:"detail,omitempty"`
	// Outcomes are "outcome (stop reason) when \"value\"" for an exit standing for several
	// outcomes; Guard the test it is taken under.
	Outcomes []string `json:"outcomes,omitempty"`
	Guard    string   `json:"guard,omitempty"`
	Taken    *cov     `json:"taken,omitempty"`
}

type idSite struct {
	Kind   string `json:"kind"`
	What   string `json:"what"`
	Pos    string `json:"pos"`
	Source string `json:"source,omitempty"`
}

// maxText caps one source line or evidence text: a minified bundle's line must not bloat the
// page.
const maxText = 400

func clip(s string) string {
	s = view.Clean(s)
	if r := []rune(s); len(r) > maxText {
		return string(r[:maxText]) + "…"
	}
	return s
}

func clipAll(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clip(s)
	}
	return out
}

type builder struct {
	p     payload
	loops map[string]int // loop identity (position, function) → index
}

func (b *builder) cov(c *model.Coverage) *cov {
	if c == nil {
		return nil
	}
	b.p.Coverage = true
	if c.Runs > b.p.MaxRuns {
		b.p.MaxRuns = c.Runs
	}
	return &cov{Runs: c.Runs, RunIDs: clipAll(c.RunIDs)}
}

func (b *builder) site(s model.CallSite) site {
	return site{Callee: clip(s.Callee), Pos: clip(s.Pos.String()), Source: clip(s.Source), Via: clipAll(s.Via),
		Parallel: s.Parallel, Conf: string(s.Provenance.Confidence), Taken: b.cov(s.Taken)}
}

func (b *builder) loop(l model.Loop) int {
	key := l.Pos.String() + "\x00" + l.Func + "\x00" + string(l.Kind)
	if i, ok := b.loops[key]; ok {
		return i
	}
	r := loop{Kind: string(l.Kind), Func: clip(l.Func), Pos: clip(l.Pos.String()), Source: clip(l.Source),
		Conf: string(l.Provenance.Confidence), Evidence: clipAll(l.Provenance.Evidence),
		Cancel: l.ChecksCancel, Parallel: l.ParallelTools, Taken: b.cov(l.Taken)}
	if l.CancelPos.IsValid() {
		r.CancelPos = clip(l.CancelPos.String())
	}
	if l.Bound != nil {
		r.Bound = &bound{Expr: clip(l.Bound.Expr), Default: clip(l.Bound.Default), DefaultEnv: clip(l.Bound.DefaultEnv), Optional: l.Bound.Optional,
			Pos: clip(l.Bound.Pos.String()), Source: clip(l.Bound.Source), Taken: b.cov(l.Bound.Taken)}
		if l.Bound.DefaultPos.IsValid() {
			r.Bound.DefaultPos = clip(l.Bound.DefaultPos.String())
		}
	}
	if l.OnBound != nil {
		r.OnBound = &onBound{Kind: l.OnBound.Kind, Value: clip(l.OnBound.Value), StopReason: string(l.OnBound.StopReason),
			Pos: clip(l.OnBound.Pos.String()), Source: clip(l.OnBound.Source), Taken: b.cov(l.OnBound.Taken)}
	}
	for _, s := range l.ModelCalls {
		r.Model = append(r.Model, b.site(s))
	}
	for _, s := range l.ToolCalls {
		r.Tools = append(r.Tools, b.site(s))
	}
	b.loops[key] = len(b.p.Loops)
	b.p.Loops = append(b.p.Loops, r)
	return len(b.p.Loops) - 1
}

// Data returns the JSON the page embeds for m. It is safe inside a <script> element: no '<',
// '>' or '&' byte, no U+2028/U+2029.
func Data(m *model.Map, opts Options) ([]byte, error) {
	b := &builder{loops: map[string]int{}}
	b.p.Title = clip(opts.Title)
	b.p.Packages = clipAll(m.Packages)
	b.p.Profiles = clipAll(m.Profiles)
	b.p.Timeline = opts.Timeline
	for _, t := range m.Terms {
		b.p.Terms = append(b.p.Terms, clip(t.Origin()+": "+t.Text))
	}
	b.p.Entries = []entry{}
	b.p.Loops = []loop{}
	for _, e := range m.Entries {
		r := entry{Func: clip(e.Func), Pos: clip(e.Pos.String()), Source: clip(e.Source), Conf: string(e.Provenance.Confidence),
			Rule: clip(e.Provenance.Rule), Evidence: clipAll(e.Provenance.Evidence), Loops: []int{}, Exits: []exit{}}
		for _, l := range e.Loops {
			r.Loops = append(r.Loops, b.loop(l))
		}
		for _, x := range e.Exits {
			ex := exit{Pos: clip(x.Pos.String()), Source: clip(x.Source), Outcome: x.Outcome,
				StopReason: string(x.StopReason), Detail: clip(x.Detail), Taken: b.cov(x.Taken), Guard: clip(x.Guard)}
			for _, o := range x.Outcomes {
				ex.Outcomes = append(ex.Outcomes, clip(o.String()+" when "+strconv.Quote(o.When)))
			}
			r.Exits = append(r.Exits, ex)
			b.p.Totals.Exits++
			if x.Taken != nil && x.Taken.Runs > 0 {
				b.p.Totals.ExitsTaken++
			}
		}
		for _, s := range e.IDs {
			r.IDs = append(r.IDs, idSite{Kind: s.Kind, What: clip(s.What), Pos: clip(s.Pos.String()), Source: clip(s.Source)})
		}
		b.p.Entries = append(b.p.Entries, r)
	}
	b.p.Totals.Entries, b.p.Totals.Loops = len(b.p.Entries), len(b.p.Loops)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(&b.p); err != nil {
		return nil, fmt.Errorf("encoding map data: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
