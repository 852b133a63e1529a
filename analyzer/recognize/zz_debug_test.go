package recognize_test

import (
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"golang.org/x/tools/go/packages"
)

func TestZZDebug(t *testing.T) {
	res := recognizeShapes(t)
	want := os.Getenv("ZZPKG")
	for _, line := range strings.Split(describe(res), "\nentry ") {
		if strings.Contains(line, want) {
			t.Log("entry " + line)
		}
	}
}

func TestZZDir(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir}, strings.Fields(os.Getenv("ZZPAT"))...)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	res := recognize.Recognize(prog, recognize.Options{})
	want := os.Getenv("ZZPKG")
	for _, line := range strings.Split(describe(res), "\nentry ") {
		if strings.Contains(line, want) {
			t.Log("entry " + line)
		}
	}
}
