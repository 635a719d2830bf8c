#!/usr/bin/env bash
# Speed, in one run on this machine: the table docs/performance.md reports. Figures, not tests.
#  - the core in-process (native/bench: oomlint-bench), per corpus config: median and p90 of analyze()
#  - the CLI's whole process (`oomlint check` on a typical config), median of many runs
#  - log scanning of a 1 GiB log (scripts/bench-log.sh, three runs): throughput and peak RSS
#  - the WebAssembly module in Node (native/bench/wasm-bench.mjs): per corpus config and a 300-line config
# each beside what users run today on the same input: yamllint, PyYAML's yaml.safe_load (timed inside
# Python and as a whole process) and grep -c. Installs what it needs first (`scripts/setup.sh --bench`:
# yamllint, python3-yaml, time, and Emscripten for the WASM rows) and builds the CLI and the module.
#
# Usage: scripts/bench.sh [--quick]   --quick: a 256 MiB log and fewer runs (to try the script)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
quick=0
case "${1:-}" in
  --quick) quick=1 ;;
  "") ;;
  *) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

py=/usr/bin/python3  # Debian's, with Debian's PyYAML (python3-yaml): what `apt install` users get
scripts/setup.sh --bench >/dev/null

echo "bench: building the release CLI, oomlint-bench and the WebAssembly module" >&2
cmake --preset release >/dev/null
cmake --build --preset release --target oomlint oomlint-bench -j"$(nproc)" >/dev/null
export NODE_PATH=/usr/share/nodejs  # emcc's optimizer needs acorn from Debian's node-acorn
[[ -f build/wasm/CMakeCache.txt ]] || cmake --preset wasm >/dev/null
cmake --build --preset wasm --target oomlint_wasm -j"$(nproc)" >/dev/null
cli=build/release/native/oomlint
wasm=build/wasm/wasm

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
configs=()
for f in ../shared/corpus/ai-toolkit/examples/*.yaml ../shared/corpus/ai-toolkit/examples/*.yml; do
  [[ -f "$f" ]] && configs+=("$f")
done
((${#configs[@]})) || { echo "bench: no configs under ../shared/corpus/ai-toolkit/examples" >&2; exit 2; }
typical=../shared/corpus/ai-toolkit/examples/train_lora_flux_24gb.yaml
# The 300-line config of the page's keystroke figure (tests/browser/measure.mjs): the FLUX example with
# more sample prompts.
"$py" - "$typical" "$tmp/flux-300.yaml" <<'EOF'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().rstrip().split("\n")
at = next(i for i, l in enumerate(lines) if re.match(r"^\s+prompts:", l)) + 1
indent = re.match(r"^\s*", lines[at]).group(0)
while len(lines) < 300:
    lines.insert(at, f'{indent}- "prompt {len(lines)}: a photo of p3r5on in a garden, soft light"')
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines) + "\n")
EOF
big="$tmp/flux-300.yaml"
# The floor of a whole process on this machine: what `oomlint check` is compared with.
echo 'int main() { return 0; }' >"$tmp/empty.cpp"
g++ -O2 -static "$tmp/empty.cpp" -o "$tmp/empty"

if ((quick)); then budget=100 runs=15 logmib=256 logruns=1; else budget=400 runs=60 logruns=3 logmib=1024; fi

echo "bench: in-process analysis (oomlint-bench)" >&2
build/release/native/oomlint-bench --time-ms "$budget" "${configs[@]}" "$big" >"$tmp/native.tsv"
if [[ -f "$wasm/oomlint.wasm" ]]; then
  echo "bench: WebAssembly in Node" >&2
  node native/bench/wasm-bench.mjs "$wasm" --time-ms "$budget" "${configs[@]}" "$big" >"$tmp/wasm.tsv" 2>"$tmp/wasm.err"
fi
echo "bench: log scanning, $logruns x scripts/bench-log.sh $logmib" >&2
for ((i = 0; i < logruns; i++)); do scripts/bench-log.sh "$logmib" >"$tmp/log.$i"; done

echo "bench: whole processes and PyYAML" >&2
"$py" - "$tmp" "$cli" "$typical" "$big" "$runs" "$logruns" "${configs[@]}" <<'EOF'
import csv, os, re, statistics, subprocess, sys, time

tmp, cli, typical, big, runs, logruns = sys.argv[1:7]
runs, logruns = int(runs), int(logruns)
configs = sys.argv[7:]
import yaml

def quantile(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, round(q * (len(v) - 1)))]

def table(path):
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {row["file"]: row for row in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t")}

def interleaved(cmds, n):
    """Median wall times in ms of whole processes run in turn, so that a noisy machine weighs on each alike."""
    for cmd in cmds:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = [[] for _ in cmds]
    for _ in range(n):
        for i, cmd in enumerate(cmds):
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t[i].append((time.perf_counter() - t0) * 1000)
    return [statistics.median(v) for v in t]

def wall(cmd, n):
    """Median and p90 wall time in ms of a whole process (spawned from here), after one warm-up run."""
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t.append((time.perf_counter() - t0) * 1000)
    return statistics.median(t), quantile(t, 0.9)

def load(text):
    try:
        yaml.safe_load(text)
    except yaml.YAMLError:
        pass  # a corpus config with a syntax error: timed up to the error, as a user would wait for it

def safe_load_ms(path, budget=0.4):
    text = open(path, encoding="utf-8").read()
    load(text)
    t, start = [], time.perf_counter()
    while len(t) < 10 or time.perf_counter() - start < budget:
        t0 = time.perf_counter()
        load(text)
        t.append((time.perf_counter() - t0) * 1000)
    return statistics.median(t)

native, wasm = table(f"{tmp}/native.tsv"), table(f"{tmp}/wasm.tsv")
corpus = [c for c in configs if c in native]
largest = max(corpus, key=lambda c: int(native[c]["bytes"]))
ms = lambda row, key: float(row[key]) / 1000
name = lambda p: os.path.basename(p)
lines = lambda p: sum(1 for _ in open(p, encoding="utf-8"))

def speed(ours, theirs):
    r = theirs / ours
    return f"{r:.0f}× faster" if r >= 10 else f"{r:.1f}× faster" if r >= 1 else f"{1 / r:.1f}× slower"

rows = []
def row(what, ours, other="", ratio="", target=""):
    rows.append((what, ours, other, ratio, target))

# In-process.
med = statistics.median(ms(native[c], "analyze_median_us") for c in corpus)
medj = statistics.median(ms(native[c], "json_median_us") for c in corpus)
py_loads = {c: safe_load_ms(c) for c in corpus + [big]}
py_med = statistics.median(py_loads[c] for c in corpus)
row(f"in-process analyze(), median over {len(corpus)} corpus configs", f"{med:.3f} ms (+JSON {medj:.3f} ms)",
    f"yaml.safe_load, same configs: {py_med:.2f} ms", speed(med, py_med))
L = native[largest]
v = ms(L, "analyze_median_us")
row(f"in-process, largest corpus config ({name(largest)}, {L['lines']} lines)",
    f"{v:.3f} ms (p90 {ms(L, 'analyze_p90_us'):.3f})", f"yaml.safe_load: {py_loads[largest]:.2f} ms", speed(v, py_loads[largest]))
B = native[big]
v = ms(B, "analyze_median_us")
row(f"in-process, 300-line config", f"{v:.3f} ms (p90 {ms(B, 'analyze_p90_us'):.3f})",
    f"yaml.safe_load: {py_loads[big]:.2f} ms", speed(v, py_loads[big]))

# Whole processes.
true_med, _ = wall(["/bin/true"], runs)
cli_med, cli_p90 = wall([cli, "check", typical], runs)
cli_big, _ = wall([cli, "check", big], runs)
empty_med, paired_med = interleaved([f"{tmp}/empty", [cli, "check", typical]], runs)
first_ms = float(re.search(r"first analysis[^:]*: ([\d.]+) ms", open(f"{tmp}/native.tsv").read()).group(1))
pyproc, _ = wall(["/usr/bin/python3", "-c", "import sys, yaml; yaml.safe_load(open(sys.argv[1]))", typical], max(10, runs // 3))
ylint, _ = wall(["yamllint", typical], max(5, runs // 6))
row(f"whole process `oomlint check` ({name(typical)}, {lines(typical)} lines), median of {runs}",
    f"{cli_med:.1f} ms (p90 {cli_p90:.1f})", f"`yamllint`: {ylint:.0f} ms", speed(cli_med, ylint),
    "")
row("", "", f"`python3 -c 'yaml.safe_load(…)'`: {pyproc:.0f} ms", speed(cli_med, pyproc))
row("whole process, 300-line config", f"{cli_big:.1f} ms")
row(f"the same check, interleaved with an empty static C++ program (median of {runs} each)", f"{paired_med:.1f} ms",
    f"`int main() {{}}`, g++ -O2 -static: {empty_med:.1f} ms", f"{paired_med / empty_med:.1f}× its time",
    "≤ 2×: " + ("met" if paired_med <= 2 * empty_med else "not met"))
row("of which: the first analysis in a process (cold: reads the compiled knowledge, first use of the code; oomlint-bench)", f"{first_ms:.2f} ms")
row("(spawning `/bin/true` from the timer)", f"{true_med:.1f} ms")

# Logs.
logs = []
for i in range(logruns):
    t = open(f"{tmp}/log.{i}").read()
    g = lambda rx: float(re.search(rx, t).group(1))
    logs.append(dict(mb=g(r"log: (\d+) MB"), s=g(r"oomlint check: ([\d.]+) s"), mbs=g(r"oomlint check: [\d.]+ s, (\d+) MB/s"),
                     rss=g(r"peak RSS ([\d.]+) MiB"), gs=g(r"grep -c: +([\d.]+) s"), gmbs=g(r"grep -c: +[\d.]+ s, (\d+) MB/s")))
mid = sorted(logs, key=lambda l: l["s"])[len(logs) // 2]
ratio = mid["s"] / mid["gs"]
rows.append((f"log scanning, {mid['mb']:.0f} MB log (median of {logruns})",
             f"{mid['mbs']:.0f} MB/s ({mid['s']:.2f} s), peak RSS {mid['rss']:.1f} MiB",
             f"`grep -c`: {mid['gmbs']:.0f} MB/s ({mid['gs']:.2f} s)", speed(mid["s"], mid["gs"]),
             f"≥ 1 GB/s: {'met' if mid['mbs'] >= 1000 else 'not met'}; within 1.5× grep: {'met' if ratio <= 1.5 else 'not met'}"))

# WebAssembly.
if wasm:
    wc = [c for c in corpus if c in wasm]
    wmed = statistics.median(ms(wasm[c], "median_us") for c in wc)
    row(f"WASM analyze() in Node (report JSON included), median over {len(wc)} corpus configs", f"{wmed:.2f} ms",
        f"native in-process +JSON: {medj:.3f} ms", f"{wmed / medj:.1f}× native time")
    W = wasm[big]
    v = ms(W, "median_us")
    row("WASM, 300-line config (one keystroke's analysis)", f"{v:.2f} ms (p90 {ms(W, 'p90_us'):.2f})",
        f"yaml.safe_load: {py_loads[big]:.2f} ms", speed(v, py_loads[big]), "< 5 ms: " + ("met" if v < 5 else "not met"))
    note = open(f"{tmp}/wasm.err").read().strip()
    m = re.search(r"instantiate (\d+) ms, first analysis ([\d.]+) ms", note)
    if m:
        row("WASM module: instantiate / first analysis (reads the compiled knowledge)", f"{m.group(1)} ms / {m.group(2)} ms",
            "", "", "first analysis ≤ 10 ms: " + ("met" if float(m.group(2)) <= 10 else "not met"))
else:
    note = "WASM module not built"

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"\n# oomlint benchmark, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores ({cpu}), load {os.getloadavg()[0]:.2f}")
print(f"# {len(corpus)} corpus configs; {note}\n")
print("| measurement | oomlint | what users run today | oomlint vs. it | target |")
print("|---|---:|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print("\nlog runs (scripts/bench-log.sh):")
for l in logs:
    print(f"  {l['mb']:.0f} MB: oomlint {l['s']:.2f} s, {l['mbs']:.0f} MB/s, peak RSS {l['rss']:.1f} MiB; grep -c {l['gs']:.2f} s, {l['gmbs']:.0f} MB/s; ratio {l['s'] / l['gs']:.1f}x")
print("\nper config (in-process median / p90 µs; WASM median µs; yaml.safe_load ms):")
for c in corpus + [big]:
    n = native[c]
    w = wasm.get(c, {}).get("median_us", "-")
    print(f"  {name(c):48} {int(n['bytes']):7d} B {int(n['lines']):4d} lines  {float(n['analyze_median_us']):8.1f} / {float(n['analyze_p90_us']):8.1f}   WASM {w:>9}   PyYAML {py_loads[c]:7.2f}")
EOF
