package explain

import (
	"html/template"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lifeline-dev/lifeline/model/explain"
	"github.com/lifeline-dev/lifeline/model/runtime"
)

// codeSpans renders text with `code` marks as HTML: every part escaped, the marked ones in
// <code>.
func codeSpans(s string) template.HTML {
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		esc := template.HTMLEscapeString(part)
		if i%2 == 1 {
			b.WriteString("<code>" + esc + "</code>")
		} else {
			b.WriteString(esc)
		}
	}
	return template.HTML(b.String())
}

type htmlDrawing struct {
	explain.Drawing
	Text string
}

type htmlPara struct {
	Item bool
	Text template.HTML
}

const style = `
:root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fff; --muted: #6e6e73; --line: #d2d2d7; --code: #f3f3f5; }
@media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #161618; --muted: #a1a1a6; --line: #3a3a3c; --code: #232326; } }
body { font: 15px/1.55 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Noto Sans CJK SC", sans-serif; color: var(--fg); background: var(--bg); max-width: 72rem; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
code { background: var(--code); padding: 0 .25em; border-radius: 3px; font-size: .92em; }
pre.tree { background: var(--code); padding: .8rem 1rem; overflow-x: auto; font: 12.5px/1.35 ui-monospace, "SF Mono", Menlo, Consolas, monospace; border-radius: 6px; }
.muted { color: var(--muted); } .caption { margin: .3rem 0 .6rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; } th, td { border: 1px solid var(--line); padding: .35rem .5rem; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
td:first-child { overflow-wrap: normal; }
a.loc { color: var(--muted); font-size: .82rem; } ul.impl { margin: 0; padding-left: 1rem; }
tr.absent td { color: var(--muted); } ul.facts { margin-top: .4rem; }
`

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Doc.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>lifeline explain {{.Doc.Topic}}: {{.Doc.Title}}</title><style>` + style + `</style></head>
<body data-topic="{{.Doc.Topic}}">
<h1 id="title">{{.Doc.Title}}</h1>
<p class="muted"><code>lifeline explain {{.Doc.Topic}}</code></p>
<section id="definition"><h2>{{.L.definition}}</h2>
{{range .Paras}}{{if .Item}}<ul><li>{{.Text}}</li></ul>{{else}}<p>{{.Text}}</p>{{end}}
{{end}}<p class="muted">{{.L.source}}{{.L.colon}}<code>{{.Doc.Source}}</code></p></section>
<section id="drawings"><h2>{{.L.drawing}}</h2>
{{range .Drawings}}<figure class="drawing" data-scenario="{{.Scenario}}">
<figcaption><strong>{{$.L.scenario}} <code>{{.Scenario}}</code></strong>{{if $.English}} — {{.Description}}{{else if not .Caption}} — {{.Description}}{{end}}
{{if .Caption}}<p class="caption">{{call $.Code .Caption}}</p>{{end}}
<p class="muted">{{$.L.shape}}{{$.L.colon}}<code>{{call $.Shape .Shape}}</code> · {{$.L.reproduce}}{{$.L.colon}}<code>{{.Command}}</code></p></figcaption>
<pre class="tree">{{.Text}}</pre>
{{if .Facts}}<ul class="facts">{{range .Facts}}<li data-kind="{{.Kind}}">{{call $.Fact .Kind}} — <code>{{.Subject}}</code>{{$.L.colon}}{{range $i, $it := .Items}}{{if $i}} · {{end}}<code>{{$it}}</code>{{end}}</li>{{end}}</ul>{{end}}
</figure>
{{end}}</section>
<section id="frameworks"><h2>{{.L.frameworks}}</h2>
<p class="muted">{{.L.frameworks_hint}}</p>
<table><thead><tr><th>{{.L.framework}}</th><th>{{.L.version}}</th><th>{{.L.names}}</th><th>{{.L.implements}}</th></tr></thead><tbody>
{{range .Doc.Frameworks}}<tr class="fw{{if .Absent}} absent{{end}}" data-framework="{{.Framework}}">
<td><strong>{{.Framework}}</strong></td><td title="{{.Profile}}"><code>{{.Version}}</code></td>
<td>{{if .Names}}{{range $i, $n := .Names}}{{if $i}}, {{end}}<code>{{$n}}</code>{{end}}<br><a class="loc" href="{{call $.Link .NamesLoc}}">{{.NamesLoc}}</a>{{else}}—{{end}}</td>
<td>{{if .Absent}}{{$.L.none}}{{else if not (or .Rules .Words .Sites)}}—{{else}}<ul class="impl">{{range .Rules}}<li><code>{{.Role}}</code> <code>{{.Object}}</code>{{if .StopReason}} → <code>{{.StopReason}}</code>{{end}}{{if .Value}} = <code>{{.Value}}</code>{{end}}{{if and .Note $.English}} <span class="muted">{{.Note}}</span>{{end}} <a class="loc" href="{{call $.Link .Loc}}">{{.Loc}}</a></li>{{end}}{{range .Words}}<li>{{.Layer}}: {{range $i, $x := .Words}}{{if $i}}, {{end}}<code>{{$x}}</code>{{end}}{{if and .Note $.English}} <span class="muted">{{.Note}}</span>{{end}} <a class="loc" href="{{call $.Link .Loc}}">{{.Loc}}</a></li>{{end}}{{range .Sites}}<li class="site">{{$.L.map}}{{$.L.colon}}<code>{{.Kind}}</code>{{if .Value}} <code>{{.Value}}</code>{{end}}{{if .What}} <code>{{.What}}</code>{{end}}{{if .Source}}<br><code class="src">{{.Source}}</code>{{end}} <a class="loc" href="{{call $.Link .Loc}}">{{.Loc}}</a></li>{{end}}</ul>{{end}}{{range call $.Notes .}}<div class="muted map-note">{{.}}</div>{{end}}</td>
</tr>
{{end}}</tbody></table></section>
</body></html>
`))

var listPage = template.Must(template.New("list").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{{.L.topics}}</title><style>` + style + `</style></head>
<body><h1 id="title">{{.L.topics}}</h1><p class="muted">{{.L.topics_hint}}</p>
<table><tbody>{{range .List}}<tr class="topic" data-topic="{{.Topic}}"><td><code>{{.Topic}}</code></td><td>{{.Title}}</td><td>{{call $.Code .Summary}}</td></tr>
{{end}}</tbody></table></body></html>
`))

func renderHTML(w io.Writer, d *explain.Doc) error {
	data := struct {
		Doc      *explain.Doc
		L        map[string]string
		Paras    []htmlPara
		Drawings []htmlDrawing
		English  bool
		Code     func(string) template.HTML
		Fact     func(string) string
		Link     func(any) template.URL
		Notes    func(explain.FrameworkRow) []string
		Shape    func(runtime.Shape) string
	}{Shape: shapeText, Doc: d, L: langLabels(d.Lang), English: d.Lang == "en", Code: codeSpans,
		Fact: func(k string) string { return factKind(d.Lang, k) },
		Link: locLink, Notes: func(r explain.FrameworkRow) []string { return mapNotes(d.Lang, r) }}
	for _, p := range d.Definition {
		item, ok := strings.CutPrefix(p, "- ")
		if !ok {
			item = p
		}
		data.Paras = append(data.Paras, htmlPara{Item: ok, Text: codeSpans(item)})
	}
	for _, dr := range d.Drawings {
		tree, err := drawTree(dr, 110, false)
		if err != nil {
			return err
		}
		data.Drawings = append(data.Drawings, htmlDrawing{Drawing: dr, Text: tree})
	}
	return page.Execute(w, data)
}

func renderListHTML(w io.Writer, lang string, list []explain.Summary) error {
	return listPage.Execute(w, struct {
		Lang string
		L    map[string]string
		List []explain.Summary
		Code func(string) template.HTML
	}{lang, langLabels(lang), list, codeSpans})
}

// locLink links a location to its line on the repository's main branch, or an installed
// framework's file to the file on this machine (a file: URL, built escaped, which html/template
// would otherwise refuse).
func locLink(loc any) template.URL {
	var l explain.Location
	switch x := loc.(type) {
	case explain.Location:
		l = x
	case *explain.Location:
		l = *x
	}
	if l.Root != "" { // a file of an installed framework, on this machine
		return template.URL((&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(l.Root, l.File))}).String())
	}
	return template.URL("https://github.com/lifeline-dev/lifeline/blob/main/" + (&url.URL{Path: l.File}).EscapedPath() + "#L" + strconv.Itoa(l.Line))
}

func langLabels(lang string) map[string]string {
	out := map[string]string{}
	for k := range labels["en"] {
		out[k] = label(lang, k)
	}
	return out
}
