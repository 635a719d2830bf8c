#!/usr/bin/env python3
"""Adafactor's factored second moment on a full fine-tune, per trained parameter, from the census UNets' shapes.

transformers' Adafactor (AI Toolkit's and sd-scripts' adafactor) factors the second moment of every tensor of two or
more dimensions over its last two: a row of numel / shape[-1] and a column of numel / shape[-2] figures, fp32 (4 B).
A Linear (out, in) keeps out + in; a 3×3 convolution (out, in, 3, 3) keeps 6·out·in of its 9·out·in; a 1×1
convolution twice its own size. A transformer is all Linears, 8 / width B per param; a UNet's convolutions make it far
more, which rules/ai-toolkit/architectures.yaml's factored_state_bytes_per_param records for the UNet families, beside
largest_tensor_params (what a step fused into the backward pass works on at once).
Builds the models on the meta device (no memory, no weights).

usage: /usr/bin/python3 scripts/census/adafactor_state.py [--rules-dir build/release/core/rules]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "gpu"))  # as census.py: the census models and the rules reader

import layers  # noqa: E402
import plan  # noqa: E402
import rules_data  # noqa: E402
import unet  # noqa: E402


def factored_state_bytes(model):
    params = state = largest = 0
    for name, p in model.named_parameters():
        if "lora" in name:
            continue
        params += p.numel()
        largest = max(largest, p.numel())
        if p.dim() >= 2:
            state += 4 * (p.numel() // p.shape[-1] + p.numel() // p.shape[-2])
        else:
            state += 4 * p.numel()
    return params, state, largest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules-dir", default=os.path.join(ROOT, "build", "release", "core", "rules"))
    args = ap.parse_args()
    rules = rules_data.load(args.rules_dir)
    prec = layers.Precision("bf16", "meta")
    for raw in plan.UNET_SPECS:
        params, state, largest = factored_state_bytes(unet.UNet(plan.unet_spec(rules, raw), prec, 1))
        print("%s\t%.4g params\t%.3f B/param\tlargest tensor %.4g" % (raw["id"], params, state / params, largest))


main()
