#!/usr/bin/env python3
"""The coefficients rules/memory.yaml takes from a census run (tests/census/results.json), as YAML lines.

A family of the estimator is one block structure; where an architecture mixes two block kinds (FLUX: 19
double + 38 single), what every block keeps is their block-weighted mean, and the peak of the block in
backward and of an inference forward is the larger of the two. The defaults (architectures with no census
family) are the median over the families. Standard library only.

Where GPU runs measured a family in both precision modes (tests/gpu/<date>/<mode>/measured-activations.json,
scripts/gpu/), their figures replace the CPU's for the LoRA-path terms: `aitk` for block, recompute and
lora_inference; `autocast` for their autocast_ twins, which the CPU census could only approximate by the bf16
run (no autocast on the CPU: the norms' fp32 outputs and autocast's weight-cast cache are missing there). A
family measured in one mode only keeps the CPU's figures, so that both of its modes come from one device.
The frozen-model inference and the UNets stay the CPU's.

  python3 scripts/census/coefficients.py [RESULTS [RESULTS_BF16]]          # YAML lines to paste
  python3 scripts/census/coefficients.py --json [RESULTS [RESULTS_BF16]]   # what tests/node/census.test.mjs compares
(RESULTS: tests/census/results.json, AI Toolkit's precision; RESULTS_BF16: tests/census/results-bf16.json;
the GPU runs: GPU_RUNS below)
"""

import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# family: [(census spec id, blocks of that kind)]; the block counts are the architectures.yaml dims_source splits.
FAMILIES = {
    "flux": [("flux.double", 19), ("flux.single", 38)],
    "flux2": [("flux2.double", 8), ("flux2.single", 48)],
    "mmdit": [("sd3.mmdit", 1), ("qwen_image.mmdit", 1), ("sd3_medium.mmdit", 1)],
    # Qwen-Image's own block, one of mmdit's three: named apart because ComfyUI runs it from its own code
    # (memory.yaml's comfyui_* figures, scripts/census/comfyui_qwen.py), unlike SD3's.
    "qwen_image": [("qwen_image.mmdit", 1)],
    "wan": [("wan21.dit", 1)],
    "wan_1.3b": [("wan21_1.3b.dit", 1)],
    "wan22_5b": [("wan22_5b.dit", 1)],
    "zimage": [("zimage.joint", 1)],
    "ltx2": [("ltx2.dit", 1)],
}
# Families whose block another family already counts: left out of the defaults' median, which weighs each block
# structure once.
COUNTED_IN = {"qwen_image": "mmdit"}
UNET_FAMILIES = {"sd1_unet": "sd1.unet"}
# mode → the runs in that mode; a later run's spec replaces an earlier one's (the autocast extras were a
# second session's run, of the families the first left out).
GPU_RUNS = {mode: [os.path.join(ROOT, "tests", "gpu", "2026-12-04", folder, "measured-activations.json") for folder in folders]
            for mode, folders in (("aitk", ("aitk",)), ("autocast", ("autocast", "autocast-extras")))}
# A memory.yaml key, how a family's block kinds combine into it (their block-weighted mean, or the larger),
# and the figure it comes from in the CPU census and in a GPU run (None: the GPU does not replace it).
TERMS = (("block_bytes_per_token_channel", "weighted", "saved", "block"),
         ("recompute_bytes_per_token_channel", "largest", "recompute_peak", "recompute"),
         ("inference_bytes_per_token_channel", "largest", "inference_frozen", None),
         ("lora_inference_bytes_per_token_channel", "largest", "inference", "inference"))
UNET_DEFAULT = "sdxl.unet"


def combine(values, how):
    """[(figure, blocks of that kind)] → the family's figure, rounded as memory.yaml writes it."""
    if how == "weighted":
        return round(sum(v * w for v, w in values) / sum(w for _, w in values), 1)
    return round(max(v for v, _ in values), 1)


def frozen_share(dit, parts):
    """What the family's blocks keep for backward with no adapted Linear (the census's saved_frozen: gradients
    still flow through them), as a share of what they keep adapted (saved), both block-weighted. A ratio of two
    figures of one CPU run, so the GPU's overlay leaves it alone."""
    def weighted(key):
        return sum(dit[i]["coefficients"][key] * w for i, w in parts)
    return round(weighted("saved_frozen") / weighted("saved"), 3)


def family_coefficients(dit, parts):
    figures = {key: combine([(dit[i]["coefficients"][cpu], w) for i, w in parts], how) for key, how, cpu, _ in TERMS}
    figures["checkpoint"] = round(max(dit[i]["coefficients"]["checkpoint"] for i, _ in parts), 2)
    figures["frozen_block_share"] = frozen_share(dit, parts)
    return figures


def gpu_family(per_spec, parts):
    """A family's LoRA-path figures from a GPU run's per-spec bytes per token per channel (allocated), combined
    as the CPU's are; None when the run lacks one of its specs."""
    if not all(i in per_spec for i, _ in parts):
        return None
    return {key: combine([(per_spec[i]["peak_allocated"][gpu], w) for i, w in parts], how) for key, how, _, gpu in TERMS if gpu}


def overlay_gpu(families, gpu, mode, prefix=""):
    """Replaces the figures of every family the GPU runs measured in both modes; returns their names."""
    measured = set()
    for name, parts in FAMILIES.items():
        if name not in families or not all(gpu_family(gpu.get(m, {}), parts) for m in GPU_RUNS):
            continue
        families[name].update({prefix + k: v for k, v in gpu_family(gpu[mode], parts).items()})
        measured.add(name)
    return measured


def load_gpu_runs():
    runs = {}
    for mode, paths in GPU_RUNS.items():
        for path in filter(os.path.isfile, paths):
            with open(path, encoding="utf-8") as f:
                runs.setdefault(mode, {}).update(json.load(f)["derived"]["per_spec"])
    return runs


def derive(results, gpu=None):
    dit = {r["id"]: r for r in results["dit"]}
    unet = {u["id"]: u for u in results["unet"]}
    families = {}
    for name, parts in FAMILIES.items():
        if all(i in dit for i, _ in parts):
            families[name] = family_coefficients(dit, parts)
    gpu_measured = overlay_gpu(families, gpu, "aitk") if gpu else set()
    keys = ("block_bytes_per_token_channel", "recompute_bytes_per_token_channel", "inference_bytes_per_token_channel",
            "lora_inference_bytes_per_token_channel", "frozen_block_share")
    structures = [f for name, f in families.items() if name not in COUNTED_IN]
    defaults = {k: round(statistics.median(f[k] for f in structures), 3 if k == "frozen_block_share" else 1) for k in keys}
    defaults["checkpoint_bytes_per_token_channel"] = round(max(f["checkpoint"] for f in structures), 1)
    for name, uid in list(UNET_FAMILIES.items()) + [(None, UNET_DEFAULT)]:
        if uid not in unet:
            continue
        b = unet[uid]["bytes_per_latent_pixel"]
        u = dict(unet_bytes_per_latent_pixel_checkpointed=b["ckpt_peak"], unet_bytes_per_latent_pixel_full=b["full_peak"],
                 unet_inference_bytes_per_latent_pixel=b["inference_peak"])
        if name is None:
            defaults.update(u)
        else:
            families[name] = u
    return defaults, families, gpu_measured


AUTOCAST_KEYS = ("block_bytes_per_token_channel", "recompute_bytes_per_token_channel",
                 "lora_inference_bytes_per_token_channel")


def with_autocast(defaults, families, bf16_results, gpu=None):
    """Adds the autocast_* figures: a GPU run under autocast where there is one, else the same blocks with the
    LoRA in bf16 on the CPU (results-bf16.json), which approximates a trainer under autocast (its adapted
    Linears save their input in bf16, not fp32 as AI Toolkit's do). Returns the families the GPU measured."""
    _, bf16_families, _ = derive(bf16_results)
    for key in AUTOCAST_KEYS:
        for name, f in bf16_families.items():
            if name in families and key in f:
                families[name]["autocast_" + key] = f[key]
    measured = overlay_gpu(families, gpu, "autocast", "autocast_") if gpu else set()
    for key in AUTOCAST_KEYS:
        defaults["autocast_" + key] = round(statistics.median(
            f["autocast_" + key] for name, f in families.items() if "autocast_" + key in f and name not in COUNTED_IN), 1)
    return measured


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv[1:] if a != "--json"]
    path = args[0] if args else os.path.join(ROOT, "tests", "census", "results.json")
    bf16_path = args[1] if len(args) > 1 else os.path.join(ROOT, "tests", "census", "results-bf16.json")
    with open(path, encoding="utf-8") as f:
        results = json.load(f)
    gpu = load_gpu_runs()
    defaults, families, gpu_measured = derive(results, gpu)
    with open(bf16_path, encoding="utf-8") as f:
        gpu_measured |= with_autocast(defaults, families, json.load(f), gpu)
    if as_json:
        for f in families.values():
            f.pop("checkpoint", None)
        json.dump({"defaults": defaults, "families": families, "gpu_measured": sorted(gpu_measured)}, sys.stdout,
                  indent=1, sort_keys=True)
        print()
        return 0
    print("# defaults")
    for k, v in defaults.items():
        print("  %s: %s" % (k, v))
    print("# families")
    for name, f in families.items():
        print("    - family: %s" % name)
        for k, v in f.items():
            if k != "checkpoint":
                print("      %s: %s" % (k, v))
        print("      measured_on: %s" % ("gpu" if name in gpu_measured else "cpu"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
