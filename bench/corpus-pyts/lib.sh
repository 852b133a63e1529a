# Shared by the Python/TypeScript/JavaScript corpora (bench/corpus-pyts, corpus-pyts-holdout,
# corpus-pyts-holdout3): source it, then call one of the functions below.
#
#   pyts_install NAME DIR LIST "PY pins" "NPM pins" [name root paths]...
#     installs the pinned Python packages with `pip install --no-deps --target DIR/py` and the
#     npm packages with `npm install --prefix DIR/npm --no-save --ignore-scripts
#     --legacy-peer-deps` (compiled JS in DIR/npm/node_modules), once per pinned set (a stamp);
#     then prints DIR, or with LIST non-empty one line per project: name<TAB>package root<TAB>
#     paths to map. A root written @npm/PKG is DIR/npm/node_modules/PKG, @py is DIR/py.
#   pyts_score HERE INSTALL_DIR [scorer args]...
#     installs (HERE/install.sh --list INSTALL_DIR), builds lifeline from the checkout unless
#     $LIFELINE names a binary, and runs bench/corpus-go/score with HERE's truth files.

# The stamp names the pinned set; a set too long for a file name (255 bytes) is named by its hash.
pyts_stamp() {
	local s
	s=$(echo "$1" | tr ' /@=' '____')
	if [ ${#s} -gt 200 ]; then
		s=sha-$(echo "$1" | sha256sum | cut -c1-32)
	fi
	echo "$s"
}

pyts_install() {
	local name=$1 dir=$2 list=$3 py=$4 npm=$5 s
	shift 5
	mkdir -p "$dir/py" "$dir/npm"
	# Two runs at once on one DIR (two scorers, or a scorer beside an install) would each see a
	# missing stamp and wipe what the other is installing: the second waits for the first.
	if command -v flock >/dev/null 2>&1; then
		exec 9>"$dir/.install.lock"
		flock 9
	fi
	s=$dir/py/.installed-$(pyts_stamp "$py")
	# An npm-only set passes "" for the Python pins: nothing to install.
	if [ -n "$py" ] && [ ! -f "$s" ]; then
		rm -rf "$dir/py" && mkdir -p "$dir/py"
		# shellcheck disable=SC2086
		python3 -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --target "$dir/py" $py >&2
		touch "$s"
	fi
	s=$dir/npm/.installed-$(pyts_stamp "$npm")
	if [ ! -f "$s" ]; then
		rm -rf "$dir/npm" && mkdir -p "$dir/npm"
		echo "{\"name\":\"$name\",\"private\":true}" >"$dir/npm/package.json"
		# shellcheck disable=SC2086
		npm install --prefix "$dir/npm" --no-save --ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error $npm >&2
		touch "$s"
	fi
	if command -v flock >/dev/null 2>&1; then
		flock -u 9
		exec 9>&-
	fi
	if [ -z "$list" ]; then
		echo "$dir"
		return 0
	fi
	while [ $# -ge 3 ]; do
		local root=$2
		case $root in
		@py) root=$dir/py ;;
		@npm/*) root=$dir/npm/node_modules/${root#@npm/} ;;
		esac
		printf '%s\t%s\t%s\n' "$1" "$root" "$3"
		shift 3
	done
}

pyts_score() {
	local here=$1 dir=$2 root list bin
	shift 2
	root=$(cd "$here/../.." && pwd)
	list=$(mktemp)
	# shellcheck disable=SC2064
	trap "rm -f '$list'" EXIT
	"$here/install.sh" --list "$dir" >"$list"
	bin=${LIFELINE:-}
	if [ -z "$bin" ]; then
		bin=$(mktemp -d)/lifeline
		(cd "$root" && go build -o "$bin" .)
	fi
	cd "$root"
	go run ./bench/corpus-go/score -lifeline "$bin" -truth "$here" -projects "$list" "$@"
}
