#!/usr/bin/env python3
"""Pixel-space heads on the CPU: what a model runs after its transformer blocks at full image resolution, per output
pixel, in training (forward, then backward from its output) and in sampling (forward under no_grad), for
rules/ai-toolkit/architectures.yaml's `pixel_head_*` figures. Both heads are frozen (lora_special.py adapts the
transformer's blocks only); the transformer's output, which feeds them, requires grad.

- chroma_radiance: ai-toolkit 27a03a91 extensions_built_in/diffusion_models/chroma/src/radiance.py (after the single
  blocks: one vector per 16-px patch feeds every NeRF block) and src/layers.py (NerfEmbedder: the patch's RGB pixels
  and an 8×8 DCT basis, in fp32, to 64 channels, cast back to bf16; NerfGLUBlock: a Linear from the patch vector
  generates a 64 → 256 gate and value and a 256 → 64 output matrix per patch, each normalized over its input side;
  RMSNorm upcasts to fp32; two bmm, SiLU and product, a third bmm and the residual; each block under a checkpoint
  whenever the model trains; the final RMSNorm, fold to the image and a 3×3 convolution to RGB).
- zimage_l2p: ai-toolkit 27a03a91 extensions_built_in/diffusion_models/z_image/z_image_l2p_model.py MicroDiffusionModel,
  not checkpointed: a 4-level convolutional U-Net (64, 128, 256, 512 channels, max-pooled) over the noisy image, whose
  bottleneck takes the transformer's feature map (one vector per 16-px patch), then nearest upsampling, a 3×3
  convolution and a skip concatenation per level back to full resolution and a 1×1 convolution to RGB.

The transformer's width only sets what the head takes in per patch (and its gradient), a few bytes per pixel: two
reduced widths are measured and each figure taken at the real width from their line. Each figure is a slope over
pixels (three sizes), in bf16, the Timeline's `peak` (an op's own scratch left out: the CPU's bf16 kernels convert
inside the op, where cuBLAS and cuDNN work on their own).

  /usr/bin/python3 scripts/census/pixel_heads.py > tests/census/pixel-heads.json   # about a minute on 2 cores
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

PATCH = 16                  # both models' pixels per patch side
WIDTHS = (256, 512)         # reduced transformer widths


# ---- Chroma Radiance: the NeRF head ------------------------------------------------------------------------

NERF, RATIO, DEPTH, FREQS = 64, 4, 4, 8   # chroma_params nerf_hidden_size, nerf_mlp_ratio, nerf_depth, nerf_max_freqs


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


class NerfHead(nn.Module):
    real_width = 3072

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

    @staticmethod
    def derived(width, elem=2):
        """Bytes per pixel from the shapes at a block's recompute, before any gradient: what autograd saves (the
        generated parameters, the three normalized matrices, the RMSNorm's fp32 input and bf16 output, the two 256-wide
        bmm outputs, the SiLU output and the product), the four blocks' checkpointed inputs and the patch vector's
        gradient."""
        hidden = NERF * RATIO
        generated = 3 * NERF * hidden
        saved = (generated + generated + 2 * NERF * PATCH**2 + 4 * hidden * PATCH**2) * elem + NERF * PATCH**2 * 4
        kept = DEPTH * NERF * PATCH**2 * elem + 2 * width * elem
        return (saved + kept) / PATCH**2


# ---- Z-Image L2P: the local decoder ------------------------------------------------------------------------

def conv_silu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.SiLU())


def up(c):
    return nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(c, c, 3, padding=1))


class LocalDecoder(nn.Module):
    """MicroDiffusionModel as z_image_l2p_model.py builds it (in_channels 3, si_t_hidden_size the transformer's dim)."""
    real_width = 3840

    def __init__(self, width):
        super().__init__()
        self.width = width
        self.enc1, self.enc2, self.enc3, self.enc4 = conv_silu(3, 64), conv_silu(64, 128), conv_silu(128, 256), conv_silu(256, 512)
        self.pool = nn.MaxPool2d(2, stride=2)
        self.bottleneck = nn.Sequential(nn.Conv2d(512 + width, 512, 1), nn.SiLU())
        self.up4, self.up3, self.up2, self.up1 = up(512), up(256), up(128), up(64)
        self.dec4, self.dec3, self.dec2, self.dec1 = conv_silu(1024, 256), conv_silu(512, 128), conv_silu(256, 64), conv_silu(128, 64)
        self.out_conv = nn.Conv2d(64, 3, 1)
        self.requires_grad_(False)

    def forward(self, hidden, img):
        b, _, h, w = img.shape
        c = hidden.reshape(b, h // PATCH, w // PATCH, self.width).permute(0, 3, 1, 2).contiguous()
        e1 = self.enc1(img)
        e2 = self.enc2(self.pool(e1))
        e3 = self.enc3(self.pool(e2))
        e4 = self.enc4(self.pool(e3))
        p4 = self.pool(e4)
        if c.shape[-2:] != p4.shape[-2:]:
            c = F.interpolate(c, size=p4.shape[-2:], mode="nearest")
        x = self.bottleneck(torch.cat([p4, c.to(p4.dtype)], dim=1))
        x = self.dec4(torch.cat([self.up4(x), e4], dim=1))
        x = self.dec3(torch.cat([self.up3(x), e3], dim=1))
        x = self.dec2(torch.cat([self.up2(x), e2], dim=1))
        x = self.dec1(torch.cat([self.up1(x), e1], dim=1))
        return self.out_conv(x)

    @staticmethod
    def derived(width, elem=2):
        """Bytes per pixel from the shapes, what the backward keeps at full resolution: the last upsampling's output
        (64 channels), the concatenation dec1's convolution saves (128), its SiLU's input (64) and out_conv's input
        (64); the half-resolution level's the same at a quarter of the pixels (128 + 256 + 128 + 128), and so on down."""
        full = 64 + 128 + 64 + 64
        levels = sum((c + 2 * c + c + c) / 4**k for k, c in ((1, 128), (2, 256), (3, 512)))
        return (full + levels) * elem


HEADS = {"chroma_radiance": (NerfHead, ((4, 4), (4, 8), (8, 8))),
         "zimage_l2p": (LocalDecoder, ((4, 4), (4, 8), (8, 8)))}   # patches per side: 64-128 px images


# ---- measuring ---------------------------------------------------------------------------------------------

def inputs(width, ph, pw, dtype, grad):
    hidden = torch.randn(1, ph * pw, width, dtype=dtype, requires_grad=grad)
    img = torch.randn(1, 3, ph * PATCH, pw * PATCH, dtype=dtype)
    return hidden, img


def training_peak(head, hidden, img):
    def step():
        out = head(hidden, img)  # the prediction stays alive through the backward, as in a trainer's loss
        out.float().square().mean().backward()
        return out
    tl, _ = census.profiled(step)
    hidden.grad = None
    return tl.peak


def sampling_peak(head, hidden, img):
    return census.inference_timeline(lambda: head(hidden, img)).peak


def measure(cls, sides, dtype):
    out = dict(real_width=cls.real_width, widths={})
    for width in WIDTHS:
        head = cls(width).to(dtype)
        if cls is NerfHead:
            head.embed.float()  # NerfEmbedder runs in fp32 (self.embedder.float() in its forward)
        rows = []
        for ph, pw in sides:
            head.train()
            hidden, img = inputs(width, ph, pw, dtype, True)
            train = training_peak(head, hidden, img)
            head.eval()
            hidden, img = inputs(width, ph, pw, dtype, False)
            rows.append(dict(patches=ph * pw, pixels=ph * pw * PATCH**2, training_peak=train,
                             sampling_peak=sampling_peak(head, hidden, img)))
        xs = [r["pixels"] for r in rows]
        train, _ = census.fit(xs, [r["training_peak"] for r in rows])
        sample, _ = census.fit(xs, [r["sampling_peak"] for r in rows])
        out["widths"][str(width)] = dict(rows=rows, training_bytes_per_pixel=round(train, 1),
                                         sampling_bytes_per_pixel=round(sample, 1), derived=round(cls.derived(width), 1))
    a, b = (out["widths"][str(w)] for w in WIDTHS)
    real = {}
    for key in ("training_bytes_per_pixel", "sampling_bytes_per_pixel"):
        slope = (b[key] - a[key]) / (WIDTHS[1] - WIDTHS[0])
        real[key] = round(a[key] + slope * (cls.real_width - WIDTHS[0]), 1)
    real["derived"] = round(cls.derived(cls.real_width), 1)
    out["at_real_width"] = real
    return out


def main():
    only = sys.argv[1].split(",") if len(sys.argv) > 1 else list(HEADS)
    torch.set_num_threads(2)
    torch.manual_seed(0)
    out = dict(patch=PATCH, dtype="bfloat16", torch=torch.__version__, device="cpu", heads={})
    for name in only:
        cls, sides = HEADS[name]
        out["heads"][name] = measure(cls, sides, torch.bfloat16)
        print("%s: %s" % (name, out["heads"][name]["at_real_width"]), file=sys.stderr)
    print(json.dumps(out, indent=4))


if __name__ == "__main__":
    main()
