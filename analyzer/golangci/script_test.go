package golangci_test

import (
	"os"
	"os/exec"
	"testing"
)

// TestGolangciLint builds a golangci-lint with this plugin and lints testdata/golangci with it
// (scripts/golangci-plugin.sh: golangci-lint's source from the Go module proxy, the plugin's
// blank import, go build), comparing the findings with testdata/golangci/expected.txt. It needs
// the module proxy and takes minutes on a cold module and build cache, so it runs only with
// LIFELINE_GOLANGCI=1 (go test -timeout 20m).
func TestGolangciLint(t *testing.T) {
	if os.Getenv("LIFELINE_GOLANGCI") != "1" {
		t.Skip("set LIFELINE_GOLANGCI=1 to build golangci-lint with the plugin and lint testdata/golangci (scripts/golangci-plugin.sh; needs the Go module proxy)")
	}
	c := exec.Command("bash", "../../scripts/golangci-plugin.sh")
	out, err := c.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("scripts/golangci-plugin.sh: %v", err)
	}
}
