#!/usr/bin/env python3
"""Scores oomlint's generation estimate on the ComfyUI field set (tests/field-comfyui/): each case's rebuilt
workflow (rebuilt.yaml) is checked with the CLI against the reported card, and the verdict is compared with
the reported outcome, as scripts/field-score.py does for the training field set. Launch flags a report names
(rebuilt.yaml `launch_flags`) are given with the workflow as the launch line ComfyUI ran under
(`python main.py FLAGS`), which oomlint reads with it.

A report, not a test. Cases whose failure was not the workflow's VRAM (kind: gpu_state, regression,
host_ram, as the training field set's failure_cause) are listed but not scored. A run that spilled into Windows' shared GPU memory (kind: spilled) ran, slowly,
because it needed more than the card: there the estimate agrees when it says the card is exceeded (not
"fits"); those are scored as their own group.

usage: scripts/field-comfyui-score.py [--cli build/release/native/oomlint] [--markdown] [--named-card]
                                     [--cases cases-batch2.yaml --rebuilt rebuilt-batch2.yaml]
  --cases, --rebuilt: another batch's labels and rebuilds (files in tests/field-comfyui), scored on their own
  --named-card: as scripts/field-score.py's: the catalog card the report names, with the report's size where that is
                not the card's (an APU's carve-out, a card modded to another size)
"""
import argparse, importlib.util, json, os, sys, tempfile

import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("field_score", os.path.join(root, "scripts/field-score.py"))
field_score = importlib.util.module_from_spec(spec)
spec.loader.exec_module(field_score)


# kijai's wrapper packs (ComfyUI-WanVideoWrapper, -HunyuanVideoWrapper, -MochiWrapper): their node types' prefixes.
WRAPPER_PREFIXES = ("WanVideo", "LoadWanVideo", "HyVideo", "DownloadAndLoadHyVideo", "Mochi", "DownloadAndLoadMochi")


def uses_wrapper(path):
    """Whether the workflow has a wrapper node: the API format's class_type, or the UI format's node type."""
    with open(path) as f:
        graph = json.load(f)
    if isinstance(graph.get("nodes"), list):
        types = [n.get("type", "") for n in graph["nodes"]]
    else:
        types = [n.get("class_type", "") for n in graph.values() if isinstance(n, dict)]
    return any(t.startswith(WRAPPER_PREFIXES) for t in types)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(root, "build/release/native/oomlint"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--named-card", action="store_true", help="check against the named catalog card where there is one")
    ap.add_argument("--cases", default="cases.yaml")
    ap.add_argument("--rebuilt", default="rebuilt.yaml")
    args = ap.parse_args()
    catalog = field_score.catalog_cards(args.cli) if args.named_card else []
    field = os.path.join(root, "tests/field-comfyui")
    with open(os.path.join(field, args.cases)) as f:
        cases = yaml.safe_load(f)["cases"]
    with open(os.path.join(field, args.rebuilt)) as f:
        rebuilt = {r["id"]: r for r in yaml.safe_load(f)}
    rows, groups = [], {}
    for c in cases:
        r = rebuilt.get(c["id"])
        if r is None:
            rows.append(("-", c["id"], c["gpu_vram_gib"], c["outcome"], "-", "not rebuilt"))
            continue
        card = field_score.named_card(catalog, c.get("gpu", ""), c["gpu_vram_gib"]) or c["gpu_vram_gib"]
        job = [os.path.join(field, r["workflow"])]
        if r.get("launch_flags"):
            # The flags the report names, as the launch line ComfyUI ran under, given with the workflow.
            launch = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
            launch.write(f"python main.py {r['launch_flags']}\n")
            launch.close()
            job.append(launch.name)
        verdict, peak, phase = field_score.verdict_of(args.cli, job, card)
        if len(job) > 1:
            os.unlink(job[1])
        kind, outcome = c.get("kind", "normal"), c["outcome"]
        group = "wrapper nodes" if uses_wrapper(os.path.join(field, r["workflow"])) else "native nodes"
        result = ""
        if verdict is None:
            result = "no estimate"
        elif kind in ("gpu_state", "regression", "host_ram"):
            result = f"not scored ({kind})"
        elif kind == "spilled":
            tally = groups.setdefault("spilled (needed more than the card)", field_score.new_tally())
            field_score.count(tally, "oom" if verdict != "fits" else "fits", "oom")
            result = "agrees (over the card)" if verdict != "fits" else "FITS BUT SPILLED"
        elif outcome == "peak":
            err = field_score.peak_error(peak, c["peak_gib"])
            for name in (group, "all"):
                groups.setdefault(name, field_score.new_tally())["peak_errors"].append(err)
            result = f"peak error {err:+.0%}"
        else:
            for name in (group, "all"):
                field_score.count(groups.setdefault(name, field_score.new_tally()), verdict, outcome)
            result = field_score.result_of(verdict, outcome)
        # A case without an estimate counts against the score: the user got no verdict.
        if verdict is None and kind == "normal" and outcome != "peak":
            for name in (group, "all"):
                field_score.count(groups.setdefault(name, field_score.new_tally()), None, outcome)
        if r.get("launch_flags"):
            result += f" (launched with {r['launch_flags']})"
        rows.append((group, c["id"], field_score.card_text(card), outcome + (f" ({c['phase']})" if c.get("phase") not in (None, "unknown") else ""),
                     "-" if verdict is None else f"{verdict} {peak:.1f} GiB in {phase}", result))
    field_score.print_rows(rows, args.markdown)
    for name, g in groups.items():
        print(field_score.summary(name, g))

if __name__ == "__main__":
    sys.exit(main())
