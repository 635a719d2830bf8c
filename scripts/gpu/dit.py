"""DiT blocks with the real widths of each family, random-initialised, and a stack of N of them.

Each block mirrors the op order of its diffusers class (FluxTransformerBlock, FluxSingleTransformerBlock,
SD3 JointTransformerBlock, QwenImageTransformerBlock, WanTransformerBlock, Z-Image's single-stream block)
closely enough that autograd keeps the same tensors; LoRA sits on every Linear inside the blocks (AdaLN
included), which is AI Toolkit's default target set for these models.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from layers import (MLP, FP32LayerNorm, LoRALinear, RMSNorm, apply_rope, attention, frozen, layer_norm,
                    merge_heads, rope_tables, split_heads)


class QKV(nn.Module):
    """q/k/v projections with per-head RMS QK-norm (FLUX, SD3.5, Qwen-Image, Z-Image)."""

    def __init__(self, dim, heads, prec, rank):
        super().__init__()
        self.heads = heads
        self.q = LoRALinear(dim, dim, prec, rank)
        self.k = LoRALinear(dim, dim, prec, rank)
        self.v = LoRALinear(dim, dim, prec, rank)
        self.norm_q = RMSNorm(dim // heads, prec)
        self.norm_k = RMSNorm(dim // heads, prec)

    def forward(self, x):
        q = self.norm_q(split_heads(self.q(x), self.heads))
        k = self.norm_k(split_heads(self.k(x), self.heads))
        return q, k, split_heads(self.v(x), self.heads)


class Modulation(nn.Module):
    """AdaLN parameters: a LoRA-adapted Linear per block, or chunks handed in from outside (shared)."""

    def __init__(self, dim, chunks, per_block, prec, rank, in_dim=None):
        super().__init__()
        self.chunks = chunks
        self.linear = LoRALinear(in_dim or dim, chunks * dim, prec, rank) if per_block else None

    def forward(self, temb):
        out = self.linear(temb) if self.linear is not None else temb
        return [c.unsqueeze(1) for c in out.chunk(self.chunks, dim=-1)]


def modulate(norm, x, shift, scale):
    return norm(x) * (1 + scale) + shift


class MMDiTBlock(nn.Module):
    """Dual-stream block: each stream modulated on its own, one joint attention over [text, image]."""

    def __init__(self, s, prec, rank):
        super().__init__()
        dim, per_block = s["hidden"], s["modulation"] == "per_block"
        self.rope = s["rope"]
        self.mod_img = Modulation(dim, 6, per_block, prec, rank)
        self.mod_txt = Modulation(dim, 6, per_block, prec, rank)
        self.norm = layer_norm(dim, prec)
        self.attn_img = QKV(dim, s["heads"], prec, rank)
        self.attn_txt = QKV(dim, s["heads"], prec, rank)
        self.out_img = LoRALinear(dim, dim, prec, rank)
        self.out_txt = LoRALinear(dim, dim, prec, rank)
        self.ff_img = MLP(dim, s["mlp_inner"], s["mlp"], prec, rank)
        self.ff_txt = MLP(dim, s["mlp_inner"], s["mlp"], prec, rank)

    def forward(self, img, txt, temb, rope):
        t_img, t_txt = (temb, temb) if not isinstance(temb, tuple) else temb
        shift_a, scale_a, gate_a, shift_m, scale_m, gate_m = self.mod_img(t_img)
        c_shift_a, c_scale_a, c_gate_a, c_shift_m, c_scale_m, c_gate_m = self.mod_txt(t_txt)
        qi, ki, vi = self.attn_img(modulate(self.norm, img, shift_a, scale_a))
        qt, kt, vt = self.attn_txt(modulate(self.norm, txt, c_shift_a, c_scale_a))
        q, k, v = torch.cat([qt, qi], dim=2), torch.cat([kt, ki], dim=2), torch.cat([vt, vi], dim=2)
        if self.rope:
            q, k = apply_rope(q, rope), apply_rope(k, rope)
        joint = merge_heads(attention(q, k, v))
        n_txt = txt.shape[1]
        img = img + gate_a * self.out_img(joint[:, n_txt:])
        txt = txt + c_gate_a * self.out_txt(joint[:, :n_txt])
        img = img + gate_m * self.ff_img(modulate(self.norm, img, shift_m, scale_m))
        txt = txt + c_gate_m * self.ff_txt(modulate(self.norm, txt, c_shift_m, c_scale_m))
        return img, txt


class SingleBlock(nn.Module):
    """FLUX single-stream block: attention and MLP in parallel from one modulated input, one proj_out."""

    def __init__(self, s, prec, rank):
        super().__init__()
        dim = s["hidden"]
        self.kind = s["mlp"]
        self.rope = s["rope"]
        self.mod = Modulation(dim, 3, s["modulation"] == "per_block", prec, rank)
        self.norm = layer_norm(dim, prec)
        self.attn = QKV(dim, s["heads"], prec, rank)
        width = s["mlp_inner"] * (2 if self.kind == "swiglu" else 1)
        self.mlp_in = LoRALinear(dim, width, prec, rank, bias=self.kind == "gelu")
        self.proj_out = LoRALinear(dim + s["mlp_inner"], dim, prec, rank, bias=self.kind == "gelu")

    def forward(self, x, temb, rope):
        shift, scale, gate = self.mod(temb)
        n = modulate(self.norm, x, shift, scale)
        h = self.mlp_in(n)
        if self.kind == "swiglu":
            g, u = h.chunk(2, dim=-1)
            mlp = F.silu(g) * u
        else:
            mlp = F.gelu(h, approximate="tanh")
        q, k, v = self.attn(n)
        if self.rope:
            q, k = apply_rope(q, rope), apply_rope(k, rope)
        a = merge_heads(attention(q, k, v))
        return x + gate * self.proj_out(torch.cat([a, mlp.to(a.dtype)], dim=2))


class JointBlock(nn.Module):
    """Single-stream pre-norm block with sandwich RMSNorms and tanh-gated AdaLN (Z-Image S3-DiT)."""

    def __init__(self, s, prec, rank):
        super().__init__()
        dim = s["hidden"]
        self.rope = s["rope"]
        self.mod = Modulation(dim, 4, s["modulation"] == "per_block", prec, rank, in_dim=temb_width(s))
        self.norm_attn_in, self.norm_attn_out = RMSNorm(dim, prec), RMSNorm(dim, prec)
        self.norm_ffn_in, self.norm_ffn_out = RMSNorm(dim, prec), RMSNorm(dim, prec)
        self.attn = QKV(dim, s["heads"], prec, rank)
        self.out = LoRALinear(dim, dim, prec, rank, bias=False)
        self.ffn = MLP(dim, s["mlp_inner"], s["mlp"], prec, rank)

    def forward(self, x, temb, rope):
        scale_a, gate_a, scale_m, gate_m = self.mod(temb)
        q, k, v = self.attn(self.norm_attn_in(x) * (1 + scale_a))
        if self.rope:
            q, k = apply_rope(q, rope), apply_rope(k, rope)
        x = x + torch.tanh(gate_a) * self.norm_attn_out(self.out(merge_heads(attention(q, k, v))))
        return x + torch.tanh(gate_m) * self.norm_ffn_out(self.ffn(self.norm_ffn_in(x) * (1 + scale_m)))


class CrossBlock(nn.Module):
    """Wan-style block: modulated self-attention (QK-norm over the full width, RoPE), cross-attention to
    the text, modulated FFN. With fp32_residual the norms, modulation and residual adds run in fp32."""

    def __init__(self, s, prec, rank):
        super().__init__()
        dim = s["hidden"]
        self.heads = s["heads"]
        self.rope = s["rope"]
        self.fp32 = bool(s.get("fp32_residual"))
        self.table = s["modulation"] == "table"
        if self.table:
            self.scale_shift_table = nn.Parameter(
                torch.randn(1, 6, dim, device=prec.device, dtype=prec.dtype) / dim ** 0.5, requires_grad=False)
        else:
            self.mod = Modulation(dim, 6, True, prec, rank)
        norm = (lambda affine: FP32LayerNorm(dim, prec, affine)) if self.fp32 else (lambda affine: layer_norm(dim, prec, affine))
        self.norm1, self.norm2, self.norm3 = norm(False), norm(True), norm(False)
        self.q, self.k, self.v, self.o = (LoRALinear(dim, dim, prec, rank) for _ in range(4))
        self.norm_q, self.norm_k = RMSNorm(dim, prec), RMSNorm(dim, prec)
        self.cq, self.ck, self.cv, self.co = (LoRALinear(dim, dim, prec, rank) for _ in range(4))
        self.norm_cq, self.norm_ck = RMSNorm(dim, prec), RMSNorm(dim, prec)
        self.ffn = MLP(dim, s["mlp_inner"], s["mlp"], prec, rank)

    def _mods(self, temb):
        if self.table:  # diffusers: (scale_shift_table + temb.float()).chunk(6, dim=1), each (B, 1, dim) fp32
            return (self.scale_shift_table + temb.float()).chunk(6, dim=1)
        return self.mod(temb)

    def _up(self, x):
        return x.float() if self.fp32 else x

    def forward(self, x, ctx, temb, rope):
        shift_a, scale_a, gate_a, shift_m, scale_m, gate_m = self._mods(temb)
        n = (self.norm1(self._up(x)) * (1 + scale_a) + shift_a).type_as(x)
        q = split_heads(self.norm_q(self.q(n)), self.heads)
        k = split_heads(self.norm_k(self.k(n)), self.heads)
        v = split_heads(self.v(n), self.heads)
        if self.rope:
            q, k = apply_rope(q, rope), apply_rope(k, rope)
        x = (self._up(x) + self.o(merge_heads(attention(q, k, v))) * gate_a).type_as(x)
        n = self.norm2(self._up(x)).type_as(x)
        q = split_heads(self.norm_cq(self.cq(n)), self.heads)
        k = split_heads(self.norm_ck(self.ck(ctx)), self.heads)
        v = split_heads(self.cv(ctx), self.heads)
        x = x + self.co(merge_heads(attention(q, k, v)))
        n = (self.norm3(self._up(x)) * (1 + scale_m) + shift_m).type_as(x)
        return (self._up(x) + self._up(self.ffn(n)) * gate_m).type_as(x)


def temb_width(s):
    """Width of the time/conditioning vector the blocks modulate from: Z-Image's adaLN reads a 256-wide
    embedding (min(dim, 256)); the other families modulate from a vector as wide as the model."""
    return min(s["hidden"], 256) if s["kind"] == "joint" else s["hidden"]


BLOCKS = {"mmdit": MMDiTBlock, "single": SingleBlock, "joint": JointBlock, "cross": CrossBlock}


class DiTStack(nn.Module):
    """Patch embedding, `depth` blocks of one kind, final norm and projection back to latent patches.

    The embedders and the output projection are frozen and carry no LoRA (AI Toolkit adapts the blocks
    only); the loss is an fp32 MSE on the output patches, as SDTrainer computes it.
    """

    def __init__(self, s, depth, prec, rank):
        super().__init__()
        self.s = s
        dim = s["hidden"]
        self.patch_dim = s["patch"] * s["patch"] * s["latent_channels"]
        self.img_in = frozen(nn.Linear(self.patch_dim, dim, device=prec.device, dtype=prec.dtype))
        self.blocks = nn.ModuleList(BLOCKS[s["kind"]](s, prec, rank) for _ in range(depth))
        self.norm_out = layer_norm(dim, prec)
        self.proj_out = frozen(nn.Linear(dim, self.patch_dim, device=prec.device, dtype=prec.dtype))
        self.shared = None
        if s["modulation"] == "shared":  # FLUX.2: one modulation for all blocks of a kind, outside them
            chunks = 12 if s["kind"] == "mmdit" else 3
            self.shared = frozen(nn.Linear(dim, chunks * dim, device=prec.device, dtype=prec.dtype))
        elif s["modulation"] == "table":  # Wan: time_projection to 6·dim once, each block adds its table
            self.shared = frozen(nn.Linear(dim, 6 * dim, device=prec.device, dtype=prec.dtype))

    def make_inputs(self, image_tokens, batch, prec):
        """Latent patches, text states (already projected to the model width), time vector, loss target."""
        s, dev, dt = self.s, prec.device, prec.dtype
        return dict(
            latents=torch.randn(batch, image_tokens, self.patch_dim, device=dev, dtype=dt),
            text=torch.randn(batch, s["text_tokens"], s["hidden"], device=dev, dtype=dt),
            vec=torch.randn(batch, temb_width(s), device=dev, dtype=dt),
            target=torch.randn(batch, image_tokens, self.patch_dim, device=dev, dtype=dt),
        )

    def _temb(self, vec):
        t = F.silu(vec)
        if self.s["modulation"] == "per_block":
            return t
        out = self.shared(t)
        if self.s["modulation"] == "table":
            return out.view(vec.shape[0], 6, -1)
        if self.s["kind"] == "mmdit":
            return tuple(out.chunk(2, dim=-1))
        return out

    def forward(self, latents, text, vec, depth, checkpointing):
        s = self.s
        img = self.img_in(latents)
        temb = self._temb(vec)
        joint = s["kind"] in ("single", "joint")
        seq = img.shape[1] + (text.shape[1] if (joint or s["kind"] == "mmdit") else 0)
        rope = rope_tables(seq, s["hidden"] // s["heads"], latents.device) if s["rope"] else None
        x = torch.cat([text, img], dim=1) if joint else img
        txt = text
        for block in self.blocks[:depth]:
            call = (lambda *a, b=block: checkpoint(b, *a, use_reentrant=False)) if checkpointing else block
            if s["kind"] == "mmdit":
                x, txt = call(x, txt, temb, rope)
            elif s["kind"] == "cross":
                x = call(x, text, temb, rope)
            else:
                x = call(x, temb, rope)
        if joint:
            x = x[:, text.shape[1]:]
        return self.proj_out(self.norm_out(x))
