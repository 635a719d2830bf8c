#!/usr/bin/env python3
"""A UNet's working memory in a generation step, on the CPU, for rules/webui.yaml's unet_act_bytes_per_latent_pixel:
the profiler's peak of live bytes over one forward under no_grad (its latent input counted), the plain model (no
LoRA path: a WebUI merges LoRAs into the weights), in 16-bit (bf16 on the CPU, which has no fp16 convolutions: the
same bytes as the WebUIs' fp16), attention as a fused kernel (xFormers, PyTorch's SDPA: no score matrix kept; the
backends that keep one add it apart, webui.yaml attention_backends). One image; the CFG batch scales it.

The UNets are scripts/gpu/unet.py's SD 1.5 and SDXL layouts (diffusers' resnets, transformers and skips) at their
released widths divided by a channel divisor, as the census runs them; the bytes per latent pixel are the slope
between the two largest sides times the divisor (the divisors must agree: every map is channels × pixels).

  /usr/bin/python3 scripts/census/unet_inference.py > tests/census/unet-inference.json
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

import torch  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
import plan  # noqa: E402
import rules_data  # noqa: E402
import unet  # noqa: E402

census.use_layers()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Latent sides: SD 1.5 at 384 to 768 px, SDXL at 512 to 1024 px (the sizes each is run at).
SIDES = {"sd1.unet": (48, 64, 96), "sdxl.unet": (64, 96, 128)}


def measure(raw, rules, divisor, prec):
    spec = plan.unet_spec(rules, raw)
    s = copy.deepcopy(spec)
    s["unet"]["channels"] = tuple(c // divisor for c in spec["unet"]["channels"])
    torch.manual_seed(0)
    model = unet.UNet(s, prec, 0).eval()
    model.requires_grad_(False)
    rows = []
    for side in SIDES[raw["id"]]:
        inp = model.make_inputs(side, 1, s, prec)
        timeline = census.inference_timeline(lambda: model(inp["latents"], inp["context"], inp["added"], False))
        rows.append({"latent_side": side, "latent_pixels": side * side, "peak_bytes": timeline.peak + census.storage_bytes(inp["latents"])})
    a, b = rows[-2], rows[-1]
    slope = (b["peak_bytes"] - a["peak_bytes"]) / (b["latent_pixels"] - a["latent_pixels"]) * divisor
    return {"id": raw["id"], "channel_divisor": divisor, "rows": rows, "bytes_per_latent_pixel": round(slope)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--divisors", default="4,8")
    ap.add_argument("--rules-dir", default=os.path.join(ROOT, "build", "release", "core", "rules"))
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    layers.set_attention("chunked" if not layers.has_fused_attention() else "auto")
    rules = rules_data.load(args.rules_dir)
    prec = layers.Precision("bf16", "cpu")
    runs = [measure(raw, rules, int(d), prec) for raw in plan.UNET_SPECS for d in args.divisors.split(",")]
    result = {"torch": torch.__version__.split("+")[0], "precision": "bf16 weights and activations, no LoRA, no_grad",
              "attention": layers.ATTENTION["impl"], "runs": runs,
              "bytes_per_latent_pixel": {r["id"]: r["bytes_per_latent_pixel"] for r in runs if r["channel_divisor"] == int(args.divisors.split(",")[0])}}
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
