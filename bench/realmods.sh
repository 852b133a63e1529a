#!/usr/bin/env bash
# Fetch three real Go agent frameworks through the module proxy into temporary modules and run
# `lifeline map` and `lifeline vet` on them. Prints the maps (text); exits non-zero if lifeline
# crashes (exit status other than 0 or 3).
#
#   bench/realmods.sh            # maps to stdout
#   OUT=/tmp/maps bench/realmods.sh   # also keep maps (text, json) and vet output in $OUT
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${OUT:-$work/out}
mkdir -p "$out"
go build -o "$work/lifeline" "$root"

run() { # name, go-get args..., -- packages...
	local name=$1; shift
	local gets=() pkgs=()
	while [ "$1" != "--" ]; do gets+=("$1"); shift; done; shift
	pkgs=("$@")
	local dir=$work/$name
	mkdir -p "$dir"
	{
		echo "module example.com/$name"; echo; echo "go 1.26"
	} >"$dir/go.mod"
	{
		echo "package main"; echo; echo "import ("
		for p in "${pkgs[@]}"; do echo "	_ \"$p\""; done
		echo ")"; echo; echo "func main() {}"
	} >"$dir/main.go"
	(cd "$dir" && go get "${gets[@]}" >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1)
	echo "==== $name: lifeline map ${pkgs[*]}"
	(cd "$dir" && "$work/lifeline" map "${pkgs[@]}" | tee "$out/$name.map.txt")
	(cd "$dir" && "$work/lifeline" map --format json "${pkgs[@]}" >"$out/$name.map.json")
	echo "==== $name: lifeline vet ${pkgs[*]}"
	set +e
	(cd "$dir" && "$work/lifeline" vet "${pkgs[@]}" | tee "$out/$name.vet.txt")
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
		echo "lifeline vet failed on $name (exit $rc)" >&2
		exit 1
	fi
}

run eino github.com/cloudwego/eino@latest github.com/bytedance/sonic@latest -- \
	github.com/cloudwego/eino/compose github.com/cloudwego/eino/flow/agent/react github.com/cloudwego/eino/adk
run langchaingo github.com/tmc/langchaingo@v0.1.14 -- github.com/tmc/langchaingo/agents
run genkit github.com/firebase/genkit/go@v1.4.0 -- github.com/firebase/genkit/go/ai
