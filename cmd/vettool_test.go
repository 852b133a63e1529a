package cmd

import "testing"

func TestIsVetTool(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/go-build/b001/vet.cfg"}, true},
		{[]string{"-json", "-lifecycle.profile=p.json", "vet.cfg"}, true},
		{[]string{"vet", "./..."}, false},
		{[]string{"map", "x.cfg"}, false},
		{[]string{"-V=full", "x"}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := isVetTool(tt.args); got != tt.want {
			t.Errorf("isVetTool(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestSelectChecks(t *testing.T) {
	if _, err := selectChecks(nil, "nosuch"); err == nil {
		t.Error("an unknown check must be an error")
	}
}
