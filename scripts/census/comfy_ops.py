"""The pieces ComfyUI's transformer blocks share, as the comfyui_*.py census scripts measure them: the compute dtype, the
head size, Linear layers in it, comfy/rmsnorm.py's RMSNorm, comfy/ldm/flux/math.py's rotary embedding, and the slope
of a block's peak over its token counts."""

import argparse
import json
import sys

import torch
import torch.nn as nn

import census

DTYPE = torch.bfloat16
HEAD_DIM = 128


def rms_norm(x, weight, eps=1e-6):
    """comfy/rmsnorm.py rms_norm without F.rms_norm (torch < 2.4)."""
    r = x * torch.rsqrt(torch.mean(x**2, dim=-1, keepdim=True) + eps)
    return r * weight


class RMSNorm(nn.Module):
    """comfy.ops' RMSNorm with its weight: rms_norm above."""

    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, dtype=DTYPE))

    def forward(self, x):
        return rms_norm(x, self.weight)


def linear(cin, cout, bias=True):
    return nn.Linear(cin, cout, bias=bias, dtype=DTYPE)


def slope(rows, width):
    """rows of {tokens, peak_bytes} at one width: the least-squares bytes per token per channel and the intercept."""
    per_token, intercept = census.fit([r["tokens"] for r in rows], [r["peak_bytes"] for r in rows])
    return {"rows": rows, "bytes_per_token_channel": round(per_token / width, 2), "intercept_bytes": round(intercept)}


def apply_rope1(x, freqs_cis):
    """comfy/ldm/flux/math.py apply_rope1, the fallback without comfy-kitchen (fp32 rotation, cast back)."""
    x_ = x.to(dtype=freqs_cis.dtype).reshape(*x.shape[:-1], -1, 1, 2)
    x_out = freqs_cis[..., 0] * x_[..., 0]
    x_out.addcmul_(freqs_cis[..., 1], x_[..., 1])
    return x_out.reshape(*x.shape).type_as(x)


def rotations(tokens):
    """(S, d/2, 2, 2) fp32 rotation matrices, as the model's rope embedder gives every block (computed once, outside
    them); each model adds its own broadcast axes."""
    angles = torch.outer(torch.arange(tokens, dtype=torch.float32), torch.rand(HEAD_DIM // 2))
    cos, sin = angles.cos(), angles.sin()
    return torch.stack([cos, -sin, sin, cos], dim=-1).view(tokens, HEAD_DIM // 2, 2, 2)


def peak_row(tokens, fn, *inputs):
    """One block call's row: the profiler's peak over fn without autograd plus its inputs' storage."""
    return {"tokens": tokens, "peak_bytes": census.inference_timeline(fn).peak + census.storage_bytes(*inputs)}


def command_line(argv, width, tokens, text=None):
    """The scripts' shared options (--width, --tokens), the seed and two threads: (width, token counts)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=width)
    ap.add_argument("--tokens", default=tokens, help="image tokens (the text's %s come on top)" % text if text else "tokens")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(2)
    return args.width, [int(t) for t in args.tokens.split(",")]


def torch_version():
    return torch.__version__.split("+")[0]


def write(result):
    json.dump(result, sys.stdout, indent=1)
    print()
