package srcir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// dropCommonJSTwins removes from files (collected under the package directories pkgs) the
// CommonJS build of a package that ships the same code twice, as ES modules and as CommonJS,
// as its package.json says: for a subpath whose "import" target (or "module") and "require"
// target (or "main") are different files, the CommonJS one and its siblings are the twin. A
// bundler that names chunks by content hash (dist/agent-B0HTHdrj.cjs beside
// dist/agent-BOxKOk3n.js) leaves no shared stem to pair the files by, so what is dropped is
// decided per package: the directory only CommonJS targets live in (dist/cjs beside
// dist/esm), or, where both builds share a directory, the .cjs files under it. An "import"
// target is never dropped. Reading both builds doubled the work and listed every entry
// twice.
func dropCommonJSTwins(files, pkgs []string) []string {
	type rule struct {
		dir string // the twin's directory, with a trailing separator
		ext string // "" when the whole directory is the twin, else the twin's extension
	}
	var rules []rule
	keep := map[string]bool{}
	for _, pd := range pkgs {
		for _, pair := range dualTargets(pd) {
			imp, req := pair[0], pair[1]
			if !isFile(imp) || !isFile(req) {
				continue
			}
			keep[imp] = true
			di, dr := filepath.Dir(imp), filepath.Dir(req)
			switch {
			case di == dr || strings.HasPrefix(dr, di+string(filepath.Separator)) || strings.HasPrefix(di, dr+string(filepath.Separator)):
				// one tree: the twin is the .cjs files (a .js/.mjs pair of one stem is paired later)
				if filepath.Ext(req) == ".cjs" && filepath.Ext(imp) != ".cjs" {
					d := di
					if len(dr) < len(d) {
						d = dr
					}
					rules = append(rules, rule{d + string(filepath.Separator), ".cjs"})
				}
			default:
				// two trees: the CommonJS one is the directory below their common parent
				if top := divergent(di, dr); top != "" {
					rules = append(rules, rule{top + string(filepath.Separator), ""})
				}
			}
		}
	}
	if len(rules) == 0 {
		return files
	}
	out := files[:0:0]
	for _, f := range files {
		drop := false
		if !keep[f] {
			for _, r := range rules {
				if strings.HasPrefix(f, r.dir) && (r.ext == "" || filepath.Ext(f) == r.ext) {
					drop = true
					break
				}
			}
		}
		if !drop {
			out = append(out, f)
		}
	}
	return out
}

// divergent is the directory of path req one level below the deepest directory it shares
// with imp (dist/cjs for dist/esm/index.js and dist/cjs/index.js), or "" when imp lies under it.
func divergent(imp, req string) string {
	sep := string(filepath.Separator)
	ip, rp := strings.Split(imp, sep), strings.Split(req, sep)
	i := 0
	for i < len(ip) && i < len(rp) && ip[i] == rp[i] {
		i++
	}
	if i >= len(rp) || i == 0 {
		return ""
	}
	return strings.Join(rp[:i+1], sep)
}

// dualTargets lists the (ES, CommonJS) target pairs of package directory pd's package.json:
// each exact subpath of "exports" whose "import" and "require" conditions name different
// files, and "module" with "main".
func dualTargets(pd string) [][2]string {
	data, err := os.ReadFile(filepath.Join(pd, "package.json"))
	if err != nil {
		return nil
	}
	var pm pkgManifest
	if json.Unmarshal(data, &pm) != nil {
		return nil
	}
	var pairs [][2]string
	add := func(imp, req string) {
		if imp == "" || req == "" || imp == req {
			return
		}
		pairs = append(pairs, [2]string{filepath.Join(pd, filepath.FromSlash(imp)), filepath.Join(pd, filepath.FromSlash(req))})
	}
	if len(pm.Exports) > 0 {
		var ex any
		if json.Unmarshal(pm.Exports, &ex) == nil {
			subs := []string{"."}
			if m, ok := ex.(map[string]any); ok {
				for k := range m {
					if strings.HasPrefix(k, ".") && k != "." && !strings.Contains(k, "*") {
						subs = append(subs, k)
					}
				}
			}
			for _, sub := range subs {
				add(exportTarget(ex, sub, []string{"import", "module", "default"}), exportTarget(ex, sub, []string{"require", "default"}))
			}
		}
	}
	add(pm.Module, pm.Main)
	return pairs
}
