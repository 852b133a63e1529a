// Package browsertest starts headless Chromium for tests that check rendered output in a real
// browser (render/html, render/mermaid). It skips a test when no browser is installed, unless
// LIFELINE_REQUIRE_BROWSER=1 (set by CI), where the missing browser is a failure.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// RequireEnv names the variable that turns a missing browser from a skip into a failure.
const RequireEnv = "LIFELINE_REQUIRE_BROWSER"

// ArtifactsEnv names the variable holding the directory tests write artifacts (screenshots) to.
const ArtifactsEnv = "LIFELINE_ARTIFACTS"

// Find returns the path of a Chromium or Chrome binary: $LIFELINE_CHROMIUM if set, else the
// first of chromium, chromium-browser, google-chrome, google-chrome-stable on PATH.
func Find() (string, error) {
	if p := os.Getenv("LIFELINE_CHROMIUM"); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("LIFELINE_CHROMIUM=%s: %w", p, err)
		}
		return path, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("no chromium, chromium-browser or google-chrome on PATH")
}

// Require skips the test when no browser is installed (fails it when LIFELINE_REQUIRE_BROWSER=1)
// and returns the browser's path.
func Require(t testing.TB) string {
	t.Helper()
	path, err := Find()
	if err == nil {
		return path
	}
	msg := fmt.Sprintf("headless browser test needs Chromium: %v (install it with `apt-get install -y chromium`, or set LIFELINE_CHROMIUM)", err)
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s; %s=1 makes this a failure", msg, RequireEnv)
	}
	t.Skip(msg)
	return ""
}

// Flags are the Chromium switches every test browser gets: headless, no sandbox (tests run as
// root in containers), and nothing that reaches the network on its own.
var Flags = []chromedp.ExecAllocatorOption{
	chromedp.Headless,
	chromedp.NoSandbox,
	chromedp.DisableGPU,
	chromedp.NoFirstRun,
	chromedp.NoDefaultBrowserCheck,
	chromedp.Flag("disable-quic", true),
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true),
	chromedp.Flag("disable-extensions", true),
	chromedp.Flag("disable-default-apps", true),
	chromedp.Flag("disable-dev-shm-usage", true),
	chromedp.Flag("disable-breakpad", true),
	chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
	chromedp.Flag("hide-scrollbars", true),
	chromedp.Flag("mute-audio", true),
	chromedp.Flag("allow-file-access-from-files", true),
}

// Browser is one headless Chromium with one tab. Ctx is the tab's chromedp context.
type Browser struct {
	// Ctx runs chromedp actions in the tab; it is cancelled by the test's cleanup.
	Ctx context.Context

	mu      sync.Mutex
	errs    []string
	dialogs []string
}

// New starts a headless Chromium with a fresh profile, sized width×height, and returns its tab.
// Console errors, uncaught exceptions, browser-log errors and dialogs are recorded from the
// start; dialogs are dismissed. The browser is closed when the test ends. The whole session is
// bounded by timeout.
func New(t testing.TB, width, height int, timeout time.Duration) *Browser {
	t.Helper()
	path := Require(t)
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}, Flags...)
	ctx, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelTab(); cancelAlloc(); cancelTimeout() })
	b := &Browser{Ctx: tctx}
	err := chromedp.Listen(tctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					if len(a.Value) > 0 {
						parts = append(parts, string(a.Value))
					} else {
						parts = append(parts, a.Description)
					}
				}
				b.record(&b.errs, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.record(&b.errs, fmt.Sprintf("exception at %s:%d:%d: %s", d.URL, d.LineNumber, d.ColumnNumber, msg))
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError {
				b.record(&b.errs, fmt.Sprintf("log %s error: %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
			}
		case *page.EventJavascriptDialogOpening:
			b.record(&b.dialogs, string(e.Type)+": "+e.Message)
			go func() {
				_, _ = chromedp.Call(tctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}()
		}
	})
	if err != nil {
		t.Fatalf("starting Chromium (%s): %v", path, err)
	}
	return b
}

func (b *Browser) record(list *[]string, s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	*list = append(*list, s)
}

// Errors returns the console errors, uncaught exceptions and browser-log errors seen so far.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// Dialogs returns the JavaScript dialogs (alert, confirm, prompt, beforeunload) opened so far.
func (b *Browser) Dialogs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.dialogs...)
}

// FileURL returns the file:// URL of a local path.
func FileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file://" + filepath.ToSlash(abs)
}

var (
	artifactOnce sync.Once
	artifactDir  string
	artifactErr  error
)

// ArtifactDir returns the directory for test artifacts: $LIFELINE_ARTIFACTS (created if
// needed) or one temporary directory per test binary that is left in place for people to look
// at. The path is logged.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	artifactOnce.Do(func() {
		if d := os.Getenv(ArtifactsEnv); d != "" {
			artifactDir, artifactErr = d, os.MkdirAll(d, 0o755)
			return
		}
		artifactDir, artifactErr = os.MkdirTemp("", "lifeline-artifacts-")
	})
	if artifactErr != nil {
		t.Fatalf("artifact dir %s: %v", artifactDir, artifactErr)
	}
	return artifactDir
}

// WriteArtifact writes data to name inside ArtifactDir and logs the path.
func WriteArtifact(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(ArtifactDir(t), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatalf("writing artifact: %v", err)
	}
	t.Logf("artifact: %s", path)
	return path
}
