"""ComfyUI's own FLUX blocks in inference, measured as scripts/census/comfyui_wan.py measures its Wan block: the
profiler's peak of live bytes over one block's forward without autograd (its inputs counted, the attention kernel's
tiles left out), at a few image token counts beside FLUX's 512 text tokens, its slope per token (image and text) per
hidden channel. The blocks are ComfyUI's at edee33f (2026-01-06, the release whose memory manager the estimate
follows; read in the PhoenixCreation/ComfyUI-TPU mirror of upstream): comfy/ldm/flux/layers.py DoubleStreamBlock and
SingleStreamBlock with their Modulation, LayerNorms, QKNorm (comfy/rmsnorm.py's fallback form: torch 1.13 has no
F.rms_norm), in-place residual adds and the `del`s rattus128's November 2025 clean-ups placed, and comfy/ldm/flux/
math.py attention: apply_rope1 in its fallback form (fp32 rotation; comfy-kitchen's fused kernel, where it loads,
keeps less) and attention_pytorch with the heads already split. Real head size (128) and MLP ratio (4), at a reduced
width; FLUX.1's 19 double and 38 single blocks take the larger block's figure, as the census does. The same blocks as
ComfyUI ran them at a125cd8, before 94c298f9 (#10737, first in v0.3.69), give `older_blocks`, the range's top for a
workflow that names no later release. FLUX.2's blocks are the same classes with its SiLU-gated MLP at 3× the width
(`flux2_blocks`; comfy/model_detection.py's flux2 branch: mlp_silu_act, mlp_ratio 3, global modulation); FLUX.2 came to
ComfyUI after #10737, so it has no older blocks.

  /usr/bin/python3 scripts/census/comfyui_flux.py > tests/census/comfyui_flux.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import (  # noqa: E402
    DTYPE, HEAD_DIM, apply_rope1, command_line, linear, peak_row, rms_norm, rotations, slope, torch_version, write)

census.use_layers()

TEXT_TOKENS = 512  # T5's padded context (FLUX.2's Mistral context as well)


class Variant:
    """What the blocks' MLP is (comfy/model_detection.py's flux branch): FLUX.1's GELU(tanh) at 4× the width, or
    FLUX.2's (mlp_silu_act) SiLU-gated one at 3×, its first Linear twice as wide, without biases."""

    def __init__(self, ratio, silu_gate):
        self.ratio, self.silu_gate = ratio, silu_gate


FLUX1 = Variant(4, False)
FLUX2 = Variant(3, True)


def attention(q, k, v, pe):
    """flux/math.py attention: q and k roped (both kept while the kernel runs), attention_pytorch with skip_reshape
    (heads already split), its output merged from the kernel's (b, s, heads, d) layout."""
    q, k = apply_rope1(q, pe), apply_rope1(k, pe)
    b, heads, _, d = q.shape
    out = layers.attention(q, k, v)
    return out.transpose(1, 2).reshape(b, -1, heads * d)


class SiLUGate(nn.Module):
    """SiLUActivation: the input's two halves, the first through SiLU, times the second (both new tensors)."""

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=-1)
        return F.silu(x1) * x2


class Modulation(nn.Module):
    def __init__(self, dim, double):
        super().__init__()
        self.multiplier = 6 if double else 3
        self.lin = linear(dim, self.multiplier * dim)

    def forward(self, vec):
        out = self.lin(F.silu(vec[:, None, :])).chunk(self.multiplier, dim=-1)
        return out[:3], out[3:] if self.multiplier == 6 else None


class QKNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Parameter(torch.ones(dim, dtype=DTYPE))
        self.key = nn.Parameter(torch.ones(dim, dtype=DTYPE))

    def forward(self, q, k, v):
        return rms_norm(q, self.query).to(v), rms_norm(k, self.key).to(v)


def layer_norm(dim):
    return nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6, dtype=DTYPE)


def mlp(dim, variant):
    """build_mlp: FLUX.1's Linear, GELU(tanh), Linear; FLUX.2's Linear to twice the hidden width, SiLUGate, Linear."""
    hidden = dim * variant.ratio
    if variant.silu_gate:
        return nn.Sequential(linear(dim, 2 * hidden, bias=False), SiLUGate(), linear(hidden, dim, bias=False))
    return nn.Sequential(linear(dim, hidden), nn.GELU(approximate="tanh"), linear(hidden, dim))


class Stream(nn.Module):
    """One stream of a DoubleStreamBlock: its modulation, norms, qkv and proj, MLP."""

    def __init__(self, dim, heads, variant):
        super().__init__()
        self.heads = heads
        self.mod = Modulation(dim, True)
        self.norm1, self.norm2 = layer_norm(dim), layer_norm(dim)
        self.qkv, self.proj = linear(dim, dim * 3), linear(dim, dim)
        self.norm = QKNorm(dim // heads)
        self.mlp = mlp(dim, variant)

    def qkv_of(self, x, mod1, kept):
        """q, k, v of the stream; before the clean-ups the block's frame kept the modulated input and the qkv map
        (`kept` holds them, as its locals did)."""
        shift, scale, _ = mod1
        modulated = torch.addcmul(shift, self.norm1(x), 1 + scale)
        qkv = self.qkv(modulated)
        kept += [modulated, qkv]
        del modulated, qkv
        q, k, v = kept[-1].view(kept[-1].shape[0], kept[-1].shape[1], 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k = self.norm(q, k, v)
        return q, k, v


class DoubleStreamBlock(nn.Module):
    """DoubleStreamBlock.forward at edee33f; with `older`, at a125cd8 (before 94c298f9, #10737): the modulated inputs,
    the qkv maps and each stream's q, k and v live to the block's end, the joint q, k, v are built inside the attention
    call, and the residuals are added out of place."""

    def __init__(self, dim, heads, older=False, variant=FLUX1):
        super().__init__()
        self.img, self.txt = Stream(dim, heads, variant), Stream(dim, heads, variant)
        self.older = older

    def forward(self, img, txt, vec, pe):
        img_mod1, img_mod2 = self.img.mod(vec)
        txt_mod1, txt_mod2 = self.txt.mod(vec)
        kept = []
        img_q, img_k, img_v = self.img.qkv_of(img, img_mod1, kept)
        txt_q, txt_k, txt_v = self.txt.qkv_of(txt, txt_mod1, kept)
        if self.older:
            kept += [img_q, img_k, img_v, txt_q, txt_k, txt_v]
            attn = attention(torch.cat((txt_q, img_q), dim=2), torch.cat((txt_k, img_k), dim=2), torch.cat((txt_v, img_v), dim=2), pe)
        else:
            kept.clear()
            q = torch.cat((txt_q, img_q), dim=2)
            del txt_q, img_q
            k = torch.cat((txt_k, img_k), dim=2)
            del txt_k, img_k
            v = torch.cat((txt_v, img_v), dim=2)
            del txt_v, img_v
            attn = attention(q, k, v, pe)
            del q, k, v
        txt_attn, img_attn = attn[:, : txt.shape[1]], attn[:, txt.shape[1]:]
        shift, scale, gate = img_mod2
        if self.older:
            img = img + self.img.proj(img_attn) * img_mod1[2]
            img = img + self.img.mlp(torch.addcmul(shift, self.img.norm2(img), 1 + scale)) * gate
        else:
            img += self.img.proj(img_attn) * img_mod1[2]
            del img_attn
            img += self.img.mlp(torch.addcmul(shift, self.img.norm2(img), 1 + scale)) * gate
        shift, scale, gate = txt_mod2
        if self.older:
            txt = txt + self.txt.proj(txt_attn) * txt_mod1[2]
            txt = txt + self.txt.mlp(torch.addcmul(shift, self.txt.norm2(txt), 1 + scale)) * gate
        else:
            txt += self.txt.proj(txt_attn) * txt_mod1[2]
            del txt_attn
            txt += self.txt.mlp(torch.addcmul(shift, self.txt.norm2(txt), 1 + scale)) * gate
        return img, txt


class SingleStreamBlock(nn.Module):
    """SingleStreamBlock.forward at edee33f; with `older`, at a125cd8: q and k (normed) live to the block's end."""

    def __init__(self, dim, heads, older=False, variant=FLUX1):
        super().__init__()
        self.older = older
        self.dim, self.heads = dim, heads
        self.mlp_hidden = dim * variant.ratio
        self.mlp_first = 2 * self.mlp_hidden if variant.silu_gate else self.mlp_hidden  # mlp_hidden_dim_first
        self.linear1 = linear(dim, dim * 3 + self.mlp_first)
        self.linear2 = linear(dim + self.mlp_hidden, dim)
        self.norm = QKNorm(dim // heads)
        self.pre_norm = layer_norm(dim)
        self.modulation = Modulation(dim, False)
        self.act = SiLUGate() if variant.silu_gate else nn.GELU(approximate="tanh")

    def forward(self, x, vec, pe):
        (shift, scale, gate), _ = self.modulation(vec)
        qkv, mlp = torch.split(self.linear1(torch.addcmul(shift, self.pre_norm(x), 1 + scale)), [3 * self.dim, self.mlp_first], dim=-1)
        q, k, v = qkv.view(qkv.shape[0], qkv.shape[1], 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        del qkv
        q, k = self.norm(q, k, v)
        attn = attention(q, k, v, pe)
        kept = [q, k, v] if self.older else []
        del q, k, v
        mlp = self.act(mlp)
        output = self.linear2(torch.cat((attn, mlp), 2))
        x += output * gate
        del kept
        return x


def measure(width, image_tokens, older=False, variant=FLUX1):
    heads = width // HEAD_DIM
    blocks = {"double": DoubleStreamBlock(width, heads, older, variant), "single": SingleStreamBlock(width, heads, older, variant)}
    result = {}
    for name, block in blocks.items():
        block.requires_grad_(False)
        rows = []
        for n in image_tokens:
            total = n + TEXT_TOKENS
            vec = torch.randn(1, width, dtype=DTYPE)
            pe = rotations(total)[None, None]  # (1, 1, S, ...) as FLUX's EmbedND lays it out
            if name == "double":
                img, txt = torch.randn(1, n, width, dtype=DTYPE), torch.randn(1, TEXT_TOKENS, width, dtype=DTYPE)
                rows.append(peak_row(total, lambda: block(img, txt, vec, pe), img, txt))
            else:
                x = torch.randn(1, total, width, dtype=DTYPE)
                rows.append(peak_row(total, lambda: block(x, vec, pe), x))
        result[name] = slope(rows, width)
    return result


def main(argv=None):
    width, tokens = command_line(argv, 768, "1024,2048,3072", TEXT_TOKENS)
    blocks = measure(width, tokens)
    older = measure(width, tokens, older=True)
    flux2 = measure(width, tokens, variant=FLUX2)  # FLUX.2 came to ComfyUI after #10737: no older blocks
    larger = lambda measured: max(b["bytes_per_token_channel"] for b in measured.values())  # noqa: E731
    result = {"source": "ComfyUI edee33f (and a125cd8, before 94c298f9) comfy/ldm/flux/layers.py DoubleStreamBlock and "
                        "SingleStreamBlock, inference, bf16, torch %s CPU" % torch_version(),
              "width": width, "blocks": blocks, "older_blocks": older, "flux2_blocks": flux2,
              "families": {"flux": {"bytes_per_token_channel": larger(blocks), "older_bytes_per_token_channel": larger(older)},
                           "flux2": {"bytes_per_token_channel": larger(flux2)}}}
    write(result)


if __name__ == "__main__":
    main()
