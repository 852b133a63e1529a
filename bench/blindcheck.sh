#!/bin/sh
# Says whether a project is in a held-out (blind) corpus, without showing what those hold:
#
#   bench/blindcheck.sh github.com/some/module langchain ...
#
# Prints "NAME: ok" or "NAME: blind — pick another" for each argument and exits 1 if any is blind.
# Helpers adding projects to an explored corpus run it on each candidate instead of reading the
# blind sets (bench/corpus-go-holdout4 except ollamarun, bench/corpus-go-holdout5,
# bench/corpus-pyts-holdout).
here=$(cd "$(dirname "$0")" && pwd)
st=0
for a in "$@"; do
	if grep -v '^ollamarun' "$here/corpus-go-holdout4/projects.tsv" "$here/corpus-go-holdout5/projects.tsv" 2>/dev/null | grep -qiF -- "$a" ||
		grep -qiF -- "$a" "$here/corpus-pyts-holdout/install.sh" 2>/dev/null; then
		echo "$a: blind — pick another"
		st=1
	else
		echo "$a: ok"
	fi
done
exit $st
