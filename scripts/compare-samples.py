#!/usr/bin/env python3
"""Compare lifeline's reading of every real-framework fixture with the generator's truth.

usage: scripts/compare-samples.py [--md] LIFELINE_BINARY [ROOT...]

--md prints a Markdown table (fixture | exact | note) instead of the plain lines.

For each <name>.expected.json under ROOT (default testdata/samples-py testdata/samples), every
file beside it whose name is <name>.<view> (not .expected/.observed/.run_state/.json of a
generator) is read with `lifeline timeline --format json` and compared on sessions, runs,
turns, steps, model calls, tool calls, failed tool calls and each run's status/stop reason.
Prints one line per view and the totals: "yes" (the generator's observed truth), "lacks" (the
file cannot record the truth and lifeline gives what <name>.inferable.json says it shows, with
the reason), "no" (neither, with the difference). Exits 1 if any view is "no". The truth is what
the generator observed, never lifeline's output.
"""
import glob, json, os, subprocess, sys

SKIP = (".expected.json", ".inferable.json", ".observed.json", ".run_state.json", ".tmp", ".mjs", ".py", ".sh", ".txt")
KEYS = ("sessions", "runs", "turns", "steps", "model_calls", "tool_calls", "failed_tool_calls")


def want_of(path):
    d = json.load(open(path)) if isinstance(path, str) else path
    return [d.get(k, 0) if k != "sessions" else d.get(k, 1) for k in KEYS], [
        (r["status"], r.get("stop_reason", "")) for r in d["runs_detail"]]


def got_of(binary, view):
    p = subprocess.run([binary, "timeline", "--format", "json", view], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()[:200]
    d = json.loads(p.stdout)
    s = d["summary"]
    return ([s.get(k, 0) for k in KEYS], [(r["status"], r.get("stop_reason", "")) for r in d["runs"]]), p.stderr.strip()[:200]


def main():
    args = sys.argv[1:]
    md = bool(args) and args[0] == "--md"
    if md:
        args = args[1:]
        print("# Real-framework fixtures: exact or not\n\n"
              "Every view of every fixture with a generator's `<name>.expected.json` under testdata/samples-py, "
              "testdata/samples and testdata/traces, read by `lifeline timeline --format json` and compared on "
              "sessions, runs, turns, steps, model calls, tool calls, failed tool calls and every run's status "
              "and stop reason. \"the file lacks it\": the view cannot record the observed truth and lifeline "
              "gives what `<name>.inferable.json` says the file shows (with the reason). Made by:\n\n"
              "    go build -o /tmp/lifeline . && scripts/compare-samples.py --md /tmp/lifeline > testdata/EXACT.md\n")
        print("| fixture | exact | note |\n|---|---|---|")
    binary = args[0]
    roots = args[1:] or ["testdata/samples-py", "testdata/samples", "testdata/traces"]
    total = exact = lacks = 0
    for root in roots:
        for exp in sorted(glob.glob(os.path.join(root, "**", "*.expected.json"), recursive=True)):
            stem = exp[: -len(".expected.json")]
            views = [v for v in sorted(glob.glob(stem + ".*")) if not v.endswith(SKIP)]
            w = want_of(exp)
            inf = json.load(open(stem + ".inferable.json")) if os.path.exists(stem + ".inferable.json") else {}
            for v in views:
                total += 1
                g, err = got_of(binary, v)
                rel = os.path.relpath(v)
                alt = inf.get(v[len(stem):])
                if g == w:
                    exact += 1
                    print(f"| `{rel}` | yes | |" if md else f"yes    {rel}")
                elif alt is not None and g == want_of(alt):
                    lacks += 1
                    print(f"| `{rel}` | no: the file lacks it | reads as far as it records: {alt['why'][:90]}… |" if md else f"lacks  {rel}  ({alt['why'][:120]}…)")
                else:
                    if md:
                        print(f"| `{rel}` | **no** | want {w}, got {g} |")
                    else:
                        print(f"no     {rel}\n       want {w}" + (f" (or what the file shows: {want_of(alt)})" if alt else "") + f"\n       got  {g} {err}")
    tail = f"{exact}/{total} exact, {lacks} read as far as the file records it, {total - exact - lacks} wrong"
    print(("\n" + tail) if md else tail)
    sys.exit(0 if exact + lacks == total else 1)


if __name__ == "__main__":
    main()
