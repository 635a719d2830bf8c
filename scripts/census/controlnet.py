#!/usr/bin/env python3
"""What a ControlNet adds to a generation step's working memory, on the CPU, for rules/webui.yaml
controlnet_activation_share: the profiler's peak of live bytes over one denoising step under no_grad, the
UNet alone against the ControlNet's forward followed by the UNet's with the control residuals added, as the
WebUI's ControlNet extension and ComfyUI run it (the ControlNet runs first; its residuals, one per skip
connection and one for the mid block, stay alive while the UNet runs).

The ControlNet is the UNet's own encoder (conv_in, time embedding, down levels, mid block; scripts/gpu/
unet.py at the released SD 1.5 / SDXL widths, divided by a channel divisor as the census does), its hint
block (diffusers ControlNetConditioningEmbedding: 3 → 16 → 32 → 96 → 256 → the first level's width,
three stride-2 convolutions from the image to the latent grid; its widths divided too) and a 1×1 zero
convolution per residual.
bf16, one image, no CFG batch (both scale alike).

  /usr/bin/python3 scripts/census/controlnet.py [--divisors 4,8] [--sides 32,48,64] [--unets sd1.unet,sdxl.unet]   # tests/census/controlnet.json
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
import plan  # noqa: E402
import rules_data  # noqa: E402
import unet  # noqa: E402

census.use_layers()


class HintBlock(nn.Module):
    """diffusers ControlNetConditioningEmbedding: the control image down to the latent grid."""

    def __init__(self, out_channels, prec, divisor):
        super().__init__()
        widths = tuple(max(2, w // divisor) for w in (16, 32, 96, 256))
        self.conv_in = layers.conv2d(3, widths[0], 3, prec)
        self.blocks = nn.ModuleList()
        for a, b in zip(widths[:-1], widths[1:]):
            self.blocks.append(layers.conv2d(a, a, 3, prec))
            self.blocks.append(layers.conv2d(a, b, 3, prec, stride=2, padding=1))
        self.conv_out = layers.conv2d(widths[-1], out_channels, 3, prec)

    def forward(self, image):
        x = F.silu(self.conv_in(image))
        for block in self.blocks:
            x = F.silu(block(x))
        return self.conv_out(x)


class ControlNet(nn.Module):
    """The UNet's encoder with a hint block and a zero convolution per residual."""

    def __init__(self, base, prec, divisor):
        super().__init__()
        self.base = base  # its encoder only (unet.UNet.encode)
        self.hint = HintBlock(base.base_channels, prec, divisor)
        widths = [base.base_channels]
        for i, level in enumerate(base.down):
            widths += [r.conv2.out_channels for r in level.resnets]
            if i < len(base.downsamplers):
                widths.append(base.downsamplers[i].out_channels)
        self.zero = nn.ModuleList(layers.conv2d(c, c, 1, prec) for c in widths)
        self.zero_mid = layers.conv2d(widths[-1], widths[-1], 1, prec)

    def forward(self, latents, image, context, added):
        _, x, skips = self.base.encode(latents, context, added, False, hint=self.hint(image))
        return [z(s) for z, s in zip(self.zero, skips)], self.zero_mid(x)


def controlled_unet(model, latents, context, added, residuals, mid):
    """unet.UNet.forward with the control residuals added to each skip and to the mid block's output."""
    temb, x, skips = model.encode(latents, context, added, False)
    skips = [s + r for s, r in zip(skips, residuals)]
    return model.decode(x + mid, temb, context, False, skips)


def measure(raw, rules, divisor, sides, prec):
    spec = plan.unet_spec(rules, raw)
    spec["unet"]["channels"] = tuple(c // divisor for c in spec["unet"]["channels"])
    torch.manual_seed(0)
    model = unet.UNet(spec, prec, 1)
    cn = ControlNet(unet.UNet(spec, prec, 1), prec, divisor)
    rows = []
    for side in sides:
        inp = model.make_inputs(side, 1, spec, prec)
        image = torch.randn(1, 3, side * spec["vae_spatial"], side * spec["vae_spatial"], dtype=prec.dtype)
        with torch.no_grad():
            alone, _ = census.profiled(lambda: model(inp["latents"], inp["context"], inp["added"], False))

            def controlled():
                residuals, mid = cn(inp["latents"], image, inp["context"], inp["added"])
                return controlled_unet(model, inp["latents"], inp["context"], inp["added"], residuals, mid)

            step, _ = census.profiled(controlled)
            cn_alone, out = census.profiled(lambda: cn(inp["latents"], image, inp["context"], inp["added"]))
        residual_bytes = census.storage_bytes(*out[0], out[1])
        rows.append(dict(latent_side=side, latent_pixels=side * side, unet_peak=alone.peak, controlled_peak=step.peak,
                         controlnet_forward_peak=cn_alone.peak, residual_bytes=residual_bytes))
    return dict(id=raw["id"], channel_divisor=divisor, rows=rows)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--divisors", default="4,8")
    ap.add_argument("--sides", default="32,48,64")
    ap.add_argument("--unets", default="sd1.unet,sdxl.unet")
    ap.add_argument("--out", default=os.path.join(census.ROOT, "tests", "census", "controlnet.json"))
    ap.add_argument("--rules-dir")
    args = ap.parse_args(argv[1:])
    torch.set_num_threads(2)
    prec = layers.Precision("bf16", "cpu")
    layers.set_attention("chunked" if not layers.has_fused_attention() else "auto")
    rules = rules_data.load(args.rules_dir)
    sides = tuple(int(s) for s in args.sides.split(","))
    runs = []
    for raw in (u for u in plan.UNET_SPECS if u["id"] in args.unets.split(",")):
        for divisor in (int(d) for d in args.divisors.split(",")):
            run = measure(copy.deepcopy(raw), rules, divisor, sides, prec)
            runs.append(run)
            for r in run["rows"]:
                extra = r["controlled_peak"] - r["unet_peak"]
                print("%s ÷%d %d² latent px: UNet %.1f MB, with ControlNet %.1f MB (+%.1f%%), ControlNet forward %.1f MB, "
                      "residuals %.1f MB" % (run["id"], divisor, r["latent_side"], r["unet_peak"] / 1e6, r["controlled_peak"] / 1e6,
                                             100 * extra / r["unet_peak"], r["controlnet_forward_peak"] / 1e6,
                                             r["residual_bytes"] / 1e6), flush=True)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(dict(torch=torch.__version__, precision=prec.describe(), command=" ".join(argv), runs=runs), f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
