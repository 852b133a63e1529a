// Command lifeline maps AI-agent programs (their source code and their runtime logs) onto one
// canonical lifecycle model and renders timelines, maps and vet-style diagnostics.
package main

import "github.com/lifeline-dev/lifeline/cmd"

func main() { cmd.Execute() }
