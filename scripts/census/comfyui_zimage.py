"""ComfyUI's own Z-Image block in inference, measured as scripts/census/comfyui_qwen.py measures its Qwen-Image block: the
profiler's peak of live bytes over one block's forward without autograd (its input counted, the attention kernel's
tiles left out), at a few image token counts beside 512 text tokens in the one joint sequence, its slope per token per
hidden channel. The block is ComfyUI's at edee33f (2026-01-06; read in the PhoenixCreation/ComfyUI-TPU mirror of
upstream): comfy/ldm/lumina/model.py JointTransformerBlock with Z-Image's settings from comfy/model_detection.py (30
heads of 128 and as many key/value heads, SwiGLU at 8/3 of the width rounded to 256, its adaLN modulation of four):
the sandwich RMSNorms (comfy/rmsnorm.py's fallback form: torch 1.13 has no F.rms_norm), JointAttention's one qkv
projection split into views, q and k normalised per head and roped (comfy/ldm/flux/math.py apply_rope1's fallback:
fp32 rotation), k and v copied by `repeat` even with one repetition, attention_pytorch with the heads split; the
residual adds out of place. Real head size (128), at a reduced width.

  /usr/bin/python3 scripts/census/comfyui_zimage.py > tests/census/comfyui_zimage.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import (  # noqa: E402
    DTYPE, HEAD_DIM, RMSNorm, apply_rope1, command_line, linear, peak_row, rotations, slope, torch_version, write)

census.use_layers()

FFN_MULTIPLIER = 8.0 / 3.0
MULTIPLE_OF = 256
TEXT_TOKENS = 512


class JointAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = linear(dim, 3 * dim, bias=False)
        self.out = linear(dim, dim, bias=False)
        self.q_norm, self.k_norm = RMSNorm(HEAD_DIM), RMSNorm(HEAD_DIM)

    def forward(self, x, pe):
        b, s, dim = x.shape
        xq, xk, xv = torch.split(self.qkv(x), [dim, dim, dim], dim=-1)
        xq, xk, xv = (t.view(b, s, self.heads, HEAD_DIM) for t in (xq, xk, xv))
        xq, xk = self.q_norm(xq), self.k_norm(xk)
        xq, xk = apply_rope1(xq, pe), apply_rope1(xk, pe)
        xk = xk.unsqueeze(3).repeat(1, 1, 1, 1, 1).flatten(2, 3)  # n_rep 1: a copy all the same
        xv = xv.unsqueeze(3).repeat(1, 1, 1, 1, 1).flatten(2, 3)
        out = layers.attention(xq.movedim(1, 2), xk.movedim(1, 2), xv.movedim(1, 2))
        return self.out(out.transpose(1, 2).reshape(b, s, dim))


class FeedForward(nn.Module):
    def __init__(self, dim):
        super().__init__()
        hidden = int(FFN_MULTIPLIER * dim)
        hidden = MULTIPLE_OF * ((hidden + MULTIPLE_OF - 1) // MULTIPLE_OF)
        self.w1, self.w3, self.w2 = linear(dim, hidden, bias=False), linear(dim, hidden, bias=False), linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    """JointTransformerBlock.forward with modulation (Z-Image's adaLN: scale and tanh gate for each half)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.attention = JointAttention(dim, heads)
        self.feed_forward = FeedForward(dim)
        self.attention_norm1, self.attention_norm2 = RMSNorm(dim), RMSNorm(dim)
        self.ffn_norm1, self.ffn_norm2 = RMSNorm(dim), RMSNorm(dim)
        self.adaLN_modulation = linear(min(dim, 256), 4 * dim, bias=True)

    def forward(self, x, adaln_input, pe):
        scale_msa, gate_msa, scale_mlp, gate_mlp = self.adaLN_modulation(adaln_input).chunk(4, dim=1)
        modulated = self.attention_norm1(x) * (1 + scale_msa.unsqueeze(1))
        x = x + gate_msa.unsqueeze(1).tanh() * self.attention_norm2(self.attention(modulated, pe))
        del modulated  # an argument's temporary: freed when the call returns
        modulated = self.ffn_norm1(x) * (1 + scale_mlp.unsqueeze(1))
        return x + gate_mlp.unsqueeze(1).tanh() * self.ffn_norm2(self.feed_forward(modulated))


def measure(width, image_tokens):
    heads = width // HEAD_DIM
    block = Block(width, heads).eval()
    block.requires_grad_(False)
    rows = []
    for n in image_tokens:
        total = n + TEXT_TOKENS
        adaln = torch.randn(1, min(width, 256), dtype=DTYPE)
        pe = rotations(total)[None, :, None]  # (1, S, 1, ...): the heads' axis follows the tokens' here
        x = torch.randn(1, total, width, dtype=DTYPE)
        rows.append(peak_row(total, lambda: block(x, adaln, pe), x))
    return slope(rows, width)


def main(argv=None):
    width, tokens = command_line(argv, 768, "1024,2048,3072", TEXT_TOKENS)
    block = measure(width, tokens)
    result = {"source": "ComfyUI edee33f comfy/ldm/lumina/model.py JointTransformerBlock (Z-Image), inference, bf16, torch %s CPU"
                        % torch_version(),
              "width": width, "block": block, "families": {"zimage": {"bytes_per_token_channel": block["bytes_per_token_channel"]}}}
    write(result)


if __name__ == "__main__":
    main()
