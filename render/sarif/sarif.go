// Package sarif writes diagnostics as SARIF 2.1.0, in the form GitHub code scanning accepts:
// one run, one rule per check with its documentation, relative file URIs against %SRCROOT%,
// region.startLine on every result and a partial fingerprint per result.
package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/lifeline-dev/lifeline/render/diag"
)

// Schema is the SARIF 2.1.0 JSON schema URI.
const Schema = "https://json.schemastore.org/sarif-2.1.0.json"

// Log is a SARIF log file.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one analysis run.
type Run struct {
	Tool       Tool     `json:"tool"`
	Results    []Result `json:"results"`
	ColumnKind string   `json:"columnKind,omitempty"`
}

// Tool describes the analyzer.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool component.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is a reporting descriptor.
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     Message        `json:"shortDescription"`
	FullDescription      Message        `json:"fullDescription"`
	Help                 *Help          `json:"help,omitempty"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration map[string]any `json:"defaultConfiguration,omitempty"`
	Properties           map[string]any `json:"properties,omitempty"`
}

// Help is rule help in text and Markdown.
type Help struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Message is a SARIF message.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	RelatedLocations    []Location        `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []Fix             `json:"fixes,omitempty"`
}

// Location is a result location.
type Location struct {
	ID               int              `json:"id,omitempty"`
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
	Message          *Message         `json:"message,omitempty"`
}

// PhysicalLocation is a file region.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           Region           `json:"region"`
}

// ArtifactLocation is a file URI.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a span of a file.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// Fix is a proposed fix.
type Fix struct {
	Description     Message          `json:"description"`
	ArtifactChanges []ArtifactChange `json:"artifactChanges"`
}

// ArtifactChange is the edits of one file.
type ArtifactChange struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Replacements     []Replacement    `json:"replacements"`
}

// Replacement replaces a byte range.
type Replacement struct {
	DeletedRegion   ByteRegion `json:"deletedRegion"`
	InsertedContent *Content   `json:"insertedContent,omitempty"`
}

// ByteRegion is a byte range.
type ByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

// Content is inserted text.
type Content struct {
	Text string `json:"text"`
}

func location(p diag.Position, end diag.Position) PhysicalLocation {
	uri := filepath.ToSlash(p.Filename)
	base := "%SRCROOT%"
	if filepath.IsAbs(p.Filename) {
		uri, base = "file://"+uri, ""
	}
	r := Region{StartLine: max(p.Line, 1), StartColumn: p.Column}
	if end.Line >= p.Line && end.Line > 0 {
		r.EndLine, r.EndColumn = end.Line, end.Column
	}
	return PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: uri, URIBaseID: base}, Region: r}
}

// Build makes a SARIF log of ds. File names should be relative to the source root.
func Build(tool, version string, rules []diag.Rule, ds []diag.Diagnostic) *Log {
	driver := Driver{Name: tool, Version: version, InformationURI: "https://github.com/lifeline-dev/lifeline", Rules: []Rule{}}
	index := map[string]int{}
	for _, r := range rules {
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, Rule{
			ID: r.ID, Name: r.ID,
			ShortDescription:     Message{Text: r.Title},
			FullDescription:      Message{Text: r.Doc},
			Help:                 &Help{Text: r.Doc + "\n\nSee " + r.URL, Markdown: r.Doc + "\n\n[Documentation](" + r.URL + ")"},
			HelpURI:              r.URL,
			DefaultConfiguration: map[string]any{"level": "warning"},
			Properties:           map[string]any{"tags": []string{"lifecycle", "agent"}, "precision": "high"},
		})
	}
	run := Run{Tool: Tool{Driver: driver}, Results: []Result{}, ColumnKind: "utf16CodeUnits"}
	for _, d := range ds {
		i, ok := index[d.Check]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[d.Check] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, Rule{ID: d.Check, ShortDescription: Message{Text: d.Check}, FullDescription: Message{Text: d.Check}})
		}
		res := Result{
			RuleID: d.Check, RuleIndex: i, Level: "warning",
			Message:   Message{Text: d.Message},
			Locations: []Location{{PhysicalLocation: location(d.Pos, d.End)}},
			PartialFingerprints: map[string]string{
				"primaryLocationLineHash": fingerprint(d),
			},
		}
		for k, r := range d.Related {
			res.RelatedLocations = append(res.RelatedLocations, Location{ID: k + 1, PhysicalLocation: location(r.Pos, r.End), Message: &Message{Text: r.Message}})
		}
		for _, f := range d.Fixes {
			fix := Fix{Description: Message{Text: f.Message}}
			byFile := map[string]int{}
			for _, e := range f.Edits {
				j, ok := byFile[e.Filename]
				if !ok {
					j = len(fix.ArtifactChanges)
					byFile[e.Filename] = j
					fix.ArtifactChanges = append(fix.ArtifactChanges, ArtifactChange{ArtifactLocation: location(diag.Position{Filename: e.Filename}, diag.Position{}).ArtifactLocation})
				}
				fix.ArtifactChanges[j].Replacements = append(fix.ArtifactChanges[j].Replacements, Replacement{
					DeletedRegion:   ByteRegion{ByteOffset: e.Start, ByteLength: e.End - e.Start},
					InsertedContent: &Content{Text: e.New},
				})
			}
			res.Fixes = append(res.Fixes, fix)
		}
		run.Results = append(run.Results, res)
	}
	return &Log{Schema: Schema, Version: "2.1.0", Runs: []Run{run}}
}

// fingerprint is stable across runs: check, file and message (not the line, which moves).
func fingerprint(d diag.Diagnostic) string {
	h := sha256.Sum256([]byte(d.Check + "\x00" + filepath.ToSlash(d.Pos.Filename) + "\x00" + strings.TrimSpace(d.Message)))
	return hex.EncodeToString(h[:8]) + ":1"
}

// Write writes the SARIF log of ds as indented JSON.
func Write(w io.Writer, tool, version string, rules []diag.Rule, ds []diag.Diagnostic) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Build(tool, version, rules, ds)); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}
