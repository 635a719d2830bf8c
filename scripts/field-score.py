#!/usr/bin/env python3
"""Scores oomlint's estimate on the field set (tests/field/cases.yaml): each case's config is checked
with the CLI against the reported card, and the verdict is compared with the reported outcome.

A report, not a test. Cases whose failure was not the config's VRAM (failure_cause: gpu_state,
regression, host_ram) are listed but not scored. Groups (AI Toolkit / mapped) are scored apart. A mapped
case whose report gave its trainer's own settings also has `native_config`, the same job in that trainer's
input (an sd-scripts or musubi-tuner command line, or a list: the command line and the TOMLs it names),
read by that trainer's system: scored as the group "mapped, native", beside "mapped, same cases" (the AI
Toolkit mapping of exactly those cases). A case with `native_config` and no `config` (a batch of jobs that were
never mapped to AI Toolkit) is scored in "mapped, native" only.

usage: scripts/field-score.py [--cli build/release/native/oomlint] [--markdown] [--cases FILE] [--named-card]
  --cases: another list in the same format (tests/field/cases-batch2.yaml, the second batch), scored on its own
  --named-card: where the report names a card of oomlint's catalog (the longest catalog name or alias inside its `gpu`),
                check against that card (--gpu NAME: its usable memory, as a user naming it gets) instead of the nominal
                gpu_vram_gib; where the report's size is not the card's (an APU's carve-out, a modded card), that card
                with the report's size (--gpu NAME --vram GIB); the other cases keep gpu_vram_gib
"""
import argparse, json, os, subprocess, sys

import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def catalog_cards(cli):
    """The cards `oomlint gpus` lists, each with its aliases and marketed size (rules/gpus.yaml)."""
    out = subprocess.run([cli, "gpus"], capture_output=True, text=True, check=True).stdout
    listed = {line.split("  ")[0].strip() for line in out.splitlines() if line.strip()}
    with open(os.path.join(root, "rules/gpus.yaml")) as f:
        return [g for g in yaml.safe_load(f)["gpus"] if g["name"] in listed]


def named_card(catalog, gpu, gib=None):
    """The card a report's gpu text names, by the longest catalog name or alias inside it ("NVIDIA A10G (AWS …)" →
    "A10G"), or None. Where the report's size (gib) is more than a tenth off the card's marketed one (a 64 GB carve-out
    of a 128 GB APU, a 2080 Ti modded to 22 GB): (name, gib), the card with the report's memory."""
    text = " " + gpu.lower().replace("nvidia ", "").replace(",", " ") + " "
    best = None
    for card in catalog:
        for n in [card["name"], *card.get("aliases", [])]:
            if f" {n.lower()} " in text and (best is None or len(n) > best[0]):
                best = (len(n), card)
    if best is None:
        return None
    card = best[1]
    if gib is not None and abs(gib - card["marketing_gb"]) > 0.1 * card["marketing_gb"]:
        return (card["name"], gib)
    return card["name"]


def card_text(card):
    return f"{card[0]} at {card[1]} GiB" if isinstance(card, tuple) else card


def verdict_of(cli, configs, card):
    """configs: the files of one job (an sd-scripts command line first, then the TOMLs it names); card: a catalog
    name (str), GiB (number), or a catalog name with the GiB it has (tuple)."""
    if isinstance(card, tuple):
        target = ["--gpu", card[0], "--vram", str(card[1])]
    else:
        target = ["--gpu", card] if isinstance(card, str) else ["--vram", str(card)]
    out = subprocess.run([cli, "check", "--format", "json", *target, "--fail-on", "never", *configs],
                         capture_output=True, text=True)
    report = json.loads(out.stdout)
    f = report["files"][0]
    est = f.get("estimate")
    if not est:
        return None, None, None
    peak = next((p for p in est["phases"] if p["name"] == est["peak_phase"]), None)
    return est["verdict"], est["peak_bytes"] / 2**30, est["peak_phase"]


def new_tally():
    return {"scored": 0, "agree": 0, "fits_wrong": 0, "fits_verdicts": 0, "borderline": 0, "peak_errors": []}


def count(tally, verdict, outcome):
    tally["scored"] += 1
    tally["agree"] += verdict == outcome
    tally["borderline"] += verdict == "borderline"
    if verdict == "fits":
        tally["fits_verdicts"] += 1
        tally["fits_wrong"] += outcome == "oom"


def peak_error(estimate_gib, reported_gb):
    """Relative error against a reported figure in GB (10^9 bytes, as nvidia-smi and the reports give it)."""
    reported_gib = reported_gb * 1e9 / 2**30
    return (estimate_gib - reported_gib) / reported_gib


def result_of(verdict, outcome):
    if verdict == outcome:
        return "agrees"
    return "FITS BUT OOM" if verdict == "fits" and outcome == "oom" else "differs"


def print_rows(rows, markdown):
    """The per-case table (tab-separated, or Markdown), then a blank line."""
    if markdown:
        print("| group | case | card GiB | reported | oomlint | result |\n|---|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        for r in rows:
            print("\t".join(str(x) for x in r))
    print()


def summary(name, g):
    """One group's scores on a line."""
    errs = sorted(abs(e) for e in g["peak_errors"])
    median = errs[len(errs) // 2] if errs else float("nan")
    return (f"{name}: fits/oom agreement {g['agree']}/{g['scored']}"
            f" ({g['agree'] / max(1, g['scored']):.0%}); 'fits' wrong {g['fits_wrong']}/{g['scored']} scored cases"
            f" ({g['fits_wrong'] / max(1, g['scored']):.0%}; {g['fits_verdicts']} fits verdicts);"
            f" borderline {g['borderline']}; peak cases {len(errs)}, median |error| {median:.0%}")


def score(groups, group, case, reviewed, verdict, peak):
    """Counts one scored case into its group twice: on the labels as collected, and with the labels a trainer's
    source contradicts set aside (label-review.yaml). Returns the row's result."""
    tallies = [groups.setdefault((group, "as collected"), new_tally())]
    if case["id"] not in reviewed:
        tallies.append(groups.setdefault((group, "label review applied"), new_tally()))
    if case["outcome"] == "peak":
        err = peak_error(peak, case["peak_gib"])
        for g in tallies:
            g["peak_errors"].append(err)
        return f"peak error {err:+.0%}"
    for g in tallies:
        count(g, verdict, case["outcome"])
    result = result_of(verdict, case["outcome"])
    return result + (f" (label reviewed: {reviewed[case['id']]})" if case["id"] in reviewed else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(root, "build/release/native/oomlint"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--cases", default="cases.yaml", help="the list to score, relative to tests/field/")
    ap.add_argument("--named-card", action="store_true", help="check against the named catalog card where there is one")
    args = ap.parse_args()
    catalog = catalog_cards(args.cli) if args.named_card else []
    field = os.path.join(root, "tests/field")
    with open(os.path.join(field, args.cases)) as f:
        cases = yaml.safe_load(f)
    with open(os.path.join(field, "label-review.yaml")) as f:
        reviewed = {r["id"]: r["reviewed_as"] for r in yaml.safe_load(f)}
    rows, groups = [], {}
    for c in cases:
        card = named_card(catalog, c.get("gpu", ""), c["gpu_vram_gib"]) or c["gpu_vram_gib"]
        outcome, cause = c["outcome"], c.get("failure_cause")
        labelled = outcome + (f" ({c['phase']})" if c.get("phase") else "")
        verdict = None
        if "config" in c:
            verdict, peak, phase = verdict_of(args.cli, [os.path.join(field, c["config"])], card)
            group = "mapped" if c.get("mapped") else "ai-toolkit"
            result = "not scored (" + cause + ")" if cause else ""
            if not cause and verdict is not None:
                result = score(groups, group, c, reviewed, verdict, peak)
            elif verdict is None:
                result = "no estimate"
            rows.append((group, c["id"], card_text(card), labelled,
                         "-" if verdict is None else f"{verdict} {peak:.1f} GiB in {phase}", result))
        elif cause:
            rows.append(("native", c["id"], card_text(card), labelled, "-", "not scored (" + cause + ")"))
        if c.get("native_config") and not cause:
            files = c["native_config"] if isinstance(c["native_config"], list) else [c["native_config"]]
            native, npeak, nphase = verdict_of(args.cli, [os.path.join(field, f) for f in files], card)
            if verdict is not None:
                score(groups, "mapped, same cases", c, reviewed, verdict, peak)
            nresult = "-" if native is None else score(groups, "mapped, native", c, reviewed, native, npeak)
            rows.append(("native", c["id"], card_text(card), labelled,
                         "-" if native is None else f"{native} {npeak:.1f} GiB in {nphase}", nresult))
    print_rows(rows, args.markdown)
    for (name, labels), g in groups.items():
        print(summary(f"{name} ({labels})", g))


if __name__ == "__main__":
    sys.exit(main())
