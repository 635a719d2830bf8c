#!/usr/bin/env python3
"""Chroma Radiance's pixel head on the CPU: the working memory of its NeRF blocks per output pixel, in training
(forward and backward, each block under a checkpoint as AI Toolkit's model runs them whenever it trains) and in
sampling (forward under no_grad), for rules/ai-toolkit/architectures.yaml chroma_radiance's `pixel_head`.

Written from ai-toolkit 27a03a91 extensions_built_in/diffusion_models/chroma/src/radiance.py (forward after the
single blocks: the transformer's output, one vector per 16-px patch, feeds every NeRF block) and src/layers.py
(NerfEmbedder: the patch's RGB pixels and an 8×8 DCT basis, in fp32, to 64 channels, cast back to bf16;
NerfGLUBlock: a Linear from the patch vector generates a 64 → 256 gate and value and a 256 → 64 output matrix per
patch, each normalized over its input side; RMSNorm upcasts to fp32; two bmm, SiLU and product, a third bmm and
the residual; NerfFinalLayerConv: RMSNorm, fold to the image, a 3×3 convolution to RGB). The generator Linear is
frozen (lora_special.py adapts single and double blocks only); the transformer's output requires grad.

The transformer's width (3072) only sets the generator's input and its gradient, which the head's figures grow
with by a few bytes per pixel: two reduced widths measured, the figure taken at 3072 from their line. Each figure
is a slope over pixels (three sizes), in bf16, the Timeline's `peak` (an op's own scratch left out: the CPU's
bf16 bmm converts to fp32 inside the op, where cuBLAS works in place).

  /usr/bin/python3 scripts/census/chroma_radiance_head.py > tests/census/chroma-radiance-head.json
"""

import sys

sys.dont_write_bytecode = True

import json  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torch.utils.checkpoint as ckpt  # noqa: E402

census.use_layers()

PATCH = 16                  # chroma_params patch_size
NERF = 64                   # nerf_hidden_size
RATIO = 4                   # nerf_mlp_ratio
DEPTH = 4                   # nerf_depth
FREQS = 8                   # nerf_max_freqs
REAL_WIDTH = 3072           # the transformer's hidden size
WIDTHS = (256, 512)         # reduced transformer widths
SIDES = ((4, 4), (4, 8), (8, 8))  # patches per side (64-128 px images)


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim), requires_grad=False)

    def forward(self, x):
        dtype = x.dtype
        x = x.float()
        rrms = torch.rsqrt(torch.mean(x**2, dim=-1, keepdim=True) + 1e-6)
        return (x * rrms).to(dtype=dtype) * self.scale


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedder = nn.Linear(3 + FREQS**2, NERF).float().requires_grad_(False)
        pos = torch.linspace(0, 1, PATCH)
        pos_y, pos_x = torch.meshgrid(pos, pos, indexing="ij")
        freqs = torch.linspace(0, FREQS - 1, FREQS)
        coeffs = (1 + freqs[None, :, None] * freqs[None, None, :]) ** -1
        dct = torch.cos(pos_x.reshape(-1, 1, 1) * freqs[None, :, None] * torch.pi) * \
            torch.cos(pos_y.reshape(-1, 1, 1) * freqs[None, None, :] * torch.pi)
        self.register_buffer("dct", (dct * coeffs).view(1, -1, FREQS**2))

    def forward(self, pixels):
        dtype = pixels.dtype
        x = torch.cat([pixels.float(), self.dct.repeat(pixels.shape[0], 1, 1)], dim=-1)
        return self.embedder(x).to(dtype)


class GluBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.param_generator = nn.Linear(width, 3 * NERF * NERF * RATIO).requires_grad_(False)
        self.norm = RMSNorm(NERF)

    def forward(self, x, s):
        n = x.shape[0]
        gate, value, out = self.param_generator(s).chunk(3, dim=-1)
        gate = F.normalize(gate.view(n, NERF, NERF * RATIO), dim=-2)
        value = F.normalize(value.view(n, NERF, NERF * RATIO), dim=-2)
        out = F.normalize(out.view(n, NERF * RATIO, NERF), dim=-2)
        res = x
        x = self.norm(x)
        x = torch.bmm(F.silu(torch.bmm(x, gate)) * torch.bmm(x, value), out)
        return x + res


class Head(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.embed = Embedder()
        self.blocks = nn.ModuleList(GluBlock(width) for _ in range(DEPTH))
        self.final_norm = RMSNorm(NERF)
        self.final_conv = nn.Conv2d(NERF, 3, 3, padding=1).requires_grad_(False)

    def forward(self, hidden, img):
        b, c, h, w = img.shape
        patches = (h // PATCH) * (w // PATCH)
        pixels = F.unfold(img, kernel_size=PATCH, stride=PATCH).transpose(1, 2)
        s = hidden.reshape(b * patches, self.width)
        pixels = pixels.reshape(b * patches, c, PATCH**2).transpose(1, 2)
        x = self.embed(pixels)
        for block in self.blocks:
            x = ckpt.checkpoint(block, x, s) if self.training else block(x, s)
        x = self.final_norm(x).transpose(1, 2).reshape(b, patches, -1).transpose(1, 2)
        return self.final_conv(F.fold(x, output_size=(h, w), kernel_size=PATCH, stride=PATCH))


def inputs(width, ph, pw, dtype, grad):
    hidden = torch.randn(1, ph * pw, width, dtype=dtype, requires_grad=grad)
    img = torch.randn(1, 3, ph * PATCH, pw * PATCH, dtype=dtype)
    return hidden, img


def training_peak(head, hidden, img):
    def step():
        out = head(hidden, img)
        out.float().square().mean().backward()
    tl, _ = census.profiled(step)
    hidden.grad = None
    return tl.peak


def sampling_peak(head, hidden, img):
    return census.inference_timeline(lambda: head(hidden, img)).peak


def derived(width, elem):
    """Bytes per pixel from the shapes (per patch, divided by its 256 pixels): at a block's recompute in backward,
    what autograd saves (the generated parameters, the three normalized matrices, the RMSNorm's fp32 input and bf16
    output, the two 256-wide bmm outputs, the SiLU output and the product), the checkpointed inputs of the four
    blocks (64 channels each) and the patch vector's gradient."""
    hidden = NERF * RATIO
    generated = 3 * NERF * hidden
    saved = (generated + generated + 2 * NERF * PATCH**2 + 4 * hidden * PATCH**2) * elem + NERF * PATCH**2 * 4
    kept = DEPTH * NERF * PATCH**2 * elem + 2 * width * elem
    return (saved + kept) / PATCH**2


def main():
    torch.set_num_threads(2)
    torch.manual_seed(0)
    dtype = torch.bfloat16
    out = dict(patch=PATCH, nerf_hidden=NERF, mlp_ratio=RATIO, depth=DEPTH, dtype="bfloat16", torch=torch.__version__,
               device="cpu", widths={})
    for width in WIDTHS:
        head = Head(width).to(dtype)
        head.embed.float()
        rows = []
        for ph, pw in SIDES:
            pixels = ph * pw * PATCH**2
            head.train()
            hidden, img = inputs(width, ph, pw, dtype, True)
            train = training_peak(head, hidden, img)
            head.eval()
            hidden, img = inputs(width, ph, pw, dtype, False)
            sample = sampling_peak(head, hidden, img)
            rows.append(dict(patches=ph * pw, pixels=pixels, training_peak=train, sampling_peak=sample))
        xs = [r["pixels"] for r in rows]
        train, _ = census.fit(xs, [r["training_peak"] for r in rows])
        sample, _ = census.fit(xs, [r["sampling_peak"] for r in rows])
        out["widths"][str(width)] = dict(rows=rows, training_bytes_per_pixel=round(train, 1),
                                         sampling_bytes_per_pixel=round(sample, 1), derived=round(derived(width, 2), 1))
        print("width %d: training %.0f B/px (derived %.0f), sampling %.0f B/px" % (
            width, train, derived(width, 2), sample), file=sys.stderr)
    a, b = (out["widths"][str(w)] for w in WIDTHS)
    at_real = {}
    for key in ("training_bytes_per_pixel", "sampling_bytes_per_pixel"):
        slope = (b[key] - a[key]) / (WIDTHS[1] - WIDTHS[0])
        at_real[key] = round(a[key] + slope * (REAL_WIDTH - WIDTHS[0]), 1)
    at_real["derived_training_bytes_per_pixel"] = round(derived(REAL_WIDTH, 2), 1)
    out["at_width_%d" % REAL_WIDTH] = at_real
    print("at %d: %s" % (REAL_WIDTH, at_real), file=sys.stderr)
    print(json.dumps(out, indent=4))


if __name__ == "__main__":
    main()
