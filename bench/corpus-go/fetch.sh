#!/usr/bin/env bash
# Fetch the Go agent corpus (bench/corpus-go/projects.tsv) through the module proxy. Each project
# is downloaded at its pinned version (`go mod download`), copied out of the read-only module cache
# into $CORPUS_DIR/<name> and made the main module there, so that lifeline prints positions
# relative to the project's own module root (the positions of the ground truth). Its dependencies
# come from the module proxy, checked against the project's own go.sum.
#
#   bench/corpus-go/fetch.sh [name...]     # all projects, or the named ones
#   CORPUS_DIR=/tmp/corpus bench/corpus-go/fetch.sh
#   PROJECTS=bench/corpus-go-holdout/projects.tsv bench/corpus-go/fetch.sh   # another list
#
# A project line may have a fourth column: module@version upgrades (space-separated) that
# `go get` applies to the copy before loading, for a pinned project whose own go.sum pins a
# dependency that does not compile with this Go (the project's source is unchanged).
#
# Prints one line per project: name<TAB>directory<TAB>patterns.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${CORPUS_DIR:-${TMPDIR:-/tmp}/lifeline-corpus-go}
projects=${PROJECTS:-$here/projects.tsv}
mkdir -p "$dir"
want=" $* "
while IFS=$'\t' read -r name modver patterns gets; do
	case $name in ''|'#'*) continue ;; esac
	if [ "$#" -gt 0 ] && [[ $want != *" $name "* ]]; then continue; fi
	src=$(cd "$dir" && GOFLAGS=-mod=mod go mod download -json "$modver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$src" ]; then
		echo "fetch: $name: go mod download $modver failed" >&2
		exit 1
	fi
	dst=$dir/$name
	marker=$dst/.fetched-$(echo "$modver${gets:+ $gets}" | tr '/@ ' '___')
	if [ ! -f "$marker" ]; then
		rm -rf "$dst"
		cp -r "$src" "$dst"
		chmod -R u+w "$dst"
		if [ -n "${gets:-}" ]; then
			# shellcheck disable=SC2086
			(cd "$dst" && GOFLAGS=-mod=mod go get $gets) || {
				echo "fetch: $name: go get $gets failed in $dst" >&2
				exit 1
			}
		fi
		# Only the packages to map (and what they import) must load.
		# shellcheck disable=SC2086
		(cd "$dst" && GOFLAGS=-mod=mod go list -e -deps $patterns >/dev/null) || {
			echo "fetch: $name: go list $patterns failed in $dst" >&2
			exit 1
		}
		touch "$marker"
	fi
	printf '%s\t%s\t%s\n' "$name" "$dst" "$patterns"
done <"$projects"
