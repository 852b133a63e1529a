#!/usr/bin/env bash
# Compiles src/*.ts (a small agent: a turn loop with a bound, a model call through an inherited
# step, tool calls, an async generator and a private field) with the real bundlers and compilers
# into out/<tool>/, the code JavaScript users have in node_modules. TestCompiledMaps compares the
# map of each output to the map of the TS source.
# Run from this folder: bash gen.sh [TOOLS_DIR] (default /tmp/jsb-tools; it is created with the
# pinned versions below when missing).
set -euo pipefail
tools=${1:-/tmp/jsb-tools}
if [ ! -x "$tools/node_modules/.bin/tsup" ]; then
	mkdir -p "$tools"
	(cd "$tools" && npm init -y >/dev/null && npm install --no-audit --no-fund \
		esbuild@0.24.0 tsup@8.3.5 rollup@4.28.1 @rollup/plugin-typescript@12.1.1 @swc/core@1.10.1 \
		@babel/core@7.26.0 @babel/cli@7.26.4 @babel/preset-env@7.26.0 @babel/preset-typescript@7.26.0 \
		typescript@5.7.2 tslib@2.8.1)
fi
bin=$tools/node_modules/.bin
here=$(pwd)
rm -rf out && mkdir -p out
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r src "$work/src"
ln -s "$tools/node_modules" "$work/node_modules"
cat >"$work/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true,
  "skipLibCheck": true, "declaration": false }, "include": ["src"] }
JSON
cd "$work"

# tsup (esbuild inside): one CommonJS bundle with the __export prelude, class expressions
"$bin/tsup" src/index.ts --format cjs --target es2022 --out-dir "$here/out/tsup" --silent
# esbuild for an old target with keepNames: __async, __asyncGenerator, __publicField, __name,
# __privateAdd/__privateGet
"$bin/esbuild" src/index.ts --bundle --format=cjs --target=es2016 --keep-names --platform=node \
	--outfile="$here/out/esbuild-es2016/index.js" --log-level=warning
# esbuild, minified: the same bundle with every helper and local renamed
"$bin/esbuild" src/index.ts --bundle --format=cjs --target=es2022 --minify --platform=node \
	--outfile="$here/out/esbuild-min/index.js" --log-level=warning
# esbuild file by file (no bundle): require()d modules, (0, import_x.f)() calls
"$bin/esbuild" src/*.ts --format=cjs --target=es2020 --platform=node --outdir="$here/out/esbuild-files" --log-level=warning
# rollup: one ES module bundle, export { … } at the end
cat >rollup.config.mjs <<JS
import typescript from "@rollup/plugin-typescript";
export default { input: "src/index.ts", output: { file: "$here/out/rollup/index.js", format: "es" },
  plugins: [typescript({ tsconfig: "./tsconfig.json", outDir: "$here/out/rollup" })] };
JS
"$bin/rollup" -c rollup.config.mjs --silent
# swc file by file to CommonJS (ES2017: class fields and private fields lowered to helpers)
node -e '
const swc = require("@swc/core"), fs = require("fs"), path = require("path");
const out = process.argv[1];
fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync("src")) {
  const r = swc.transformFileSync(path.join("src", f), { jsc: { parser: { syntax: "typescript" }, target: "es2017" },
    module: { type: "commonjs" }, sourceMaps: false, swcrc: false });
  fs.writeFileSync(path.join(out, f.replace(/\.ts$/, ".js")), r.code);
}' "$here/out/swc"
# babel file by file to CommonJS (Node 16: class and private fields lowered to helpers)
cat >babel.config.json <<'JSON'
{ "presets": [["@babel/preset-env", { "targets": { "node": "16" }, "modules": "commonjs" }], "@babel/preset-typescript"] }
JSON
"$bin/babel" src --extensions .ts --out-dir "$here/out/babel" --quiet
# tsc to CommonJS for ES2015 with tslib: __awaiter, __asyncGenerator, __classPrivateFieldGet
"$bin/tsc" -p tsconfig.json --module commonjs --moduleResolution node --target ES2015 --lib ES2022,DOM --importHelpers --outDir "$here/out/tsc"
cd "$here"
find out -type f | sort
