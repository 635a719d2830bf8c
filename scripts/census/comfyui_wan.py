"""ComfyUI's own Wan transformer block in inference, measured as the census measures the trainers' blocks: the profiler's
peak of live bytes over one block's forward without autograd (the block's input counted, the attention kernel's tiles
left out), at a few token counts, its slope per token per hidden channel. The block is ComfyUI's at a125cd8
(2025-10-12, after Comfy-Org/ComfyUI#9898 and #10062 trimmed its peak): comfy/ldm/wan/model.py WanAttentionBlock with
WanSelfAttention and WanT2VCrossAttention, in the compute dtype throughout (bf16: no fp32 norms or residuals, unlike the
trainers' diffusers block), q and k each computed in a function of its own so that their intermediates are freed before
the next, comfy/ldm/flux/math.py apply_rope1 (fp32 rotation, cast back), comfy/rmsnorm.py's RMSNorm (its fallback form:
torch 1.13 has no F.rms_norm), comfy/ldm/modules/attention.py attention_pytorch (SDPA, heads merged from the kernel's
layout) and the tanh-GELU FFN. Real head size (128) and each model's FFN ratio (Wan 2.1/2.2 14B 13824 / 5120, 2.1 1.3B
8960 / 1536, 2.2 5B 14336 / 3072: the FFN's two hidden maps outgrow the rotary embedding's fp32 copies above about
3.5), at a reduced width; the figure does not move with the width. The same blocks as ComfyUI ran them before
e42682b2 (#9898, first in v0.3.60: q, k and v made together and roped together, the self-attention's output kept to
the block's end) give `older_families`, the range's top for a workflow that names no later release.

  /usr/bin/python3 scripts/census/comfyui_wan.py > tests/census/comfyui_wan.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import (  # noqa: E402
    DTYPE, HEAD_DIM, apply_rope1, command_line, peak_row, rms_norm, rotations, slope, torch_version, write)

census.use_layers()

# memory.yaml's activation family: the model's FFN width over its hidden width
FAMILIES = {"wan": 13824 / 5120, "wan_1.3b": 8960 / 1536, "wan22_5b": 14336 / 3072}
TEXT_TOKENS = 512         # umT5's padded context (text_len)


def attention(q, k, v, heads):
    """attention_pytorch: (b, s, heads·d) views to (b, heads, s, d); SDPA (the memory-efficient emulation on
    torch 1.13, whose output is laid out (b, s, heads, d) as the fused kernels' is); heads merged back."""
    b, _, inner = q.shape
    d = inner // heads
    q, k, v = (t.view(b, -1, heads, d).transpose(1, 2) for t in (q, k, v))
    out = layers.attention(q, k, v)
    return out.transpose(1, 2).reshape(b, -1, heads * d)


class Linear(nn.Linear):
    def __init__(self, cin, cout):
        super().__init__(cin, cout, dtype=DTYPE)


class SelfAttention(nn.Module):
    """WanSelfAttention at a125cd8; with `older`, before e42682b2 (#9898): q, k and v made together, then q and k roped
    (apply_rope), all of them alive while k's rotation runs."""

    def __init__(self, dim, heads, older=False):
        super().__init__()
        self.older = older
        self.heads, self.head_dim = heads, dim // heads
        self.q, self.k, self.v, self.o = Linear(dim, dim), Linear(dim, dim), Linear(dim, dim), Linear(dim, dim)
        self.norm_q = nn.Parameter(torch.ones(dim, dtype=DTYPE))
        self.norm_k = nn.Parameter(torch.ones(dim, dtype=DTYPE))

    def forward(self, x, freqs):
        b, s, n, d = *x.shape[:2], self.heads, self.head_dim

        def qkv_fn_q(x):
            return apply_rope1(rms_norm(self.q(x), self.norm_q).view(b, s, n, d), freqs)

        def qkv_fn_k(x):
            return apply_rope1(rms_norm(self.k(x), self.norm_k).view(b, s, n, d), freqs)

        if self.older:
            q = rms_norm(self.q(x), self.norm_q).view(b, s, n, d)
            k = rms_norm(self.k(x), self.norm_k).view(b, s, n, d)
            v = self.v(x).view(b, s, n * d)
            q, k = apply_rope1(q, freqs), apply_rope1(k, freqs)
            x = attention(q.view(b, s, n * d), k.view(b, s, n * d), v, self.heads)
            return self.o(x)
        q = qkv_fn_q(x)
        k = qkv_fn_k(x)
        x = attention(q.view(b, s, n * d), k.view(b, s, n * d), self.v(x).view(b, s, n * d), self.heads)
        return self.o(x)


class CrossAttention(SelfAttention):
    def forward(self, x, context):
        q = rms_norm(self.q(x), self.norm_q)
        k = rms_norm(self.k(context), self.norm_k)
        v = self.v(context)
        return self.o(attention(q, k, v, self.heads))


class Block(nn.Module):
    """WanAttentionBlock.forward (t2v cross-attention, cross_attn_norm as the 14B models set it)."""

    def __init__(self, dim, heads, ffn, older=False):
        super().__init__()
        self.dim, self.older = dim, older
        self.norm1 = nn.LayerNorm(dim, eps=1e-6, elementwise_affine=False, dtype=DTYPE)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6, elementwise_affine=False, dtype=DTYPE)
        self.norm3 = nn.LayerNorm(dim, eps=1e-6, elementwise_affine=True, dtype=DTYPE)
        self.self_attn = SelfAttention(dim, heads, older)
        self.cross_attn = CrossAttention(dim, heads)
        self.ffn = nn.Sequential(Linear(dim, ffn), nn.GELU(approximate="tanh"), Linear(ffn, dim))
        self.modulation = nn.Parameter(torch.zeros(1, 6, dim, dtype=DTYPE))

    def forward(self, x, e, freqs, context):
        e = (self.modulation.unsqueeze(0) + e).unbind(2)
        y = self.self_attn(torch.addcmul(e[0], self.norm1(x), 1 + e[1]), freqs)
        x = torch.addcmul(x, y, e[2])
        kept = [y] if self.older else []  # before #9898 the self-attention's output lived to the block's end
        del y
        x = x + self.cross_attn(self.norm3(x), context)
        y = self.ffn(torch.addcmul(e[3], self.norm2(x), 1 + e[4]))
        x = torch.addcmul(x, y, e[5])
        del kept
        return x


def measure(width, ffn_ratio, tokens, older=False):
    heads = width // HEAD_DIM
    ffn = round(width * ffn_ratio)
    block = Block(width, heads, ffn, older)
    block.requires_grad_(False)
    rows = []
    for s in tokens:
        x = torch.randn(1, s, width, dtype=DTYPE)
        e = torch.randn(1, 1, 6, width, dtype=DTYPE)
        context = torch.randn(1, TEXT_TOKENS, width, dtype=DTYPE)
        freqs = rotations(s)[None, :, None]  # (1, S, 1, ...) as Wan's rope_encode lays it out
        rows.append(peak_row(s, lambda: block(x, e, freqs, context), x))
    return {"width": width, "heads": heads, "ffn": ffn, **slope(rows, width)}


def main(argv=None):
    width, tokens = command_line(argv, 1280, "512,1024,1536")
    result = {"source": "ComfyUI a125cd8 (and before e42682b2) comfy/ldm/wan/model.py WanAttentionBlock (t2v), inference, bf16, torch %s CPU"
                        % torch_version(),
              "families": {name: measure(width, ratio, tokens) for name, ratio in FAMILIES.items()},
              "older_families": {name: measure(width, ratio, tokens, older=True) for name, ratio in FAMILIES.items()}}
    write(result)


if __name__ == "__main__":
    main()
