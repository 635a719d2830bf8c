#!/usr/bin/env python3
"""A GPU measurement against the rules' per-family coefficients (the CPU census's, rules/memory.yaml
activations.families): one row per measured family, the GPU's allocated bytes per token per channel beside
the rules value the estimator uses for that family in the run's precision mode, and their ratio.

  python3 scripts/gpu/compare_census.py tests/gpu/2026-12-04/aitk/measured-activations.json
  python3 scripts/gpu/compare_census.py RUN.json --rules-dir build/release/core/rules

The run's own table (measured-activations.md) compares against the global defaults; this one against what
each family really gets. A ratio above 1 is an underestimate of the rules.
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402

import rules_data  # noqa: E402

# measured term -> the memory.yaml family key per precision mode (aitk: AI Toolkit's fp32 LoRA inputs, no
# autocast; autocast: sd-scripts / musubi-tuner under accelerate's autocast)
TERMS = (
    ("block", "block_bytes_per_token_channel", "autocast_block_bytes_per_token_channel"),
    ("recompute", "recompute_bytes_per_token_channel", "autocast_recompute_bytes_per_token_channel"),
    ("inference", "lora_inference_bytes_per_token_channel", "autocast_lora_inference_bytes_per_token_channel"),
)


def rules_family(rules, fam):
    name = rules.denoiser(fam["arch"], fam.get("variant")).get("activation_family")
    for f in rules.activation_constants().get("families") or []:
        if f.get("family") == name:
            return name, f
    return name, {}


def compare(data, rules):
    mode = data["settings"]["mode"]
    column = 2 if mode.startswith("autocast") else 1
    rows = []
    for fam_name, fam in data["derived"]["families"].items():
        family, coefficients = rules_family(rules, fam)
        for term in TERMS:
            measured = fam["peak_allocated"].get(term[0])
            reserved = fam["peak_reserved"].get(term[0])
            today = coefficients.get(term[column])
            rows.append(dict(measured_family=fam_name, rules_family=family, term=term[0], key=term[column],
                             gpu_allocated=measured, gpu_reserved=reserved, rules=today,
                             ratio=measured / today if measured and today else None))
    return mode, rows


def markdown(mode, rows):
    lines = ["GPU (mode %s) against the rules' per-family coefficients, bytes per token per channel" % mode, "",
             "| family (GPU) | rules family | term | rules | GPU allocated | GPU reserved | GPU / rules |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %s | %s | %.1f | %.1f | %s |" % (
            r["measured_family"], r["rules_family"] or "–", r["term"],
            "%.1f" % r["rules"] if r["rules"] else "–", r["gpu_allocated"], r["gpu_reserved"],
            "%.2f" % r["ratio"] if r["ratio"] else "–"))
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="a measured-activations.json")
    p.add_argument("--rules-dir")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = p.parse_args(argv)
    with open(args.run, encoding="utf-8") as f:
        data = json.load(f)
    mode, rows = compare(data, rules_data.load(args.rules_dir))
    print(json.dumps(rows, indent=1) if args.json else markdown(mode, rows))


if __name__ == "__main__":
    main()
