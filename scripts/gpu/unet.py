"""An SD-style UNet (diffusers UNet2DConditionModel layout) at the released channel widths.

Resnets, cross-attention transformers, skip connections and up/down sampling follow diffusers, so the
activation memory per latent pixel is that of the real network. LoRA goes on every Linear inside the
transformers (attention, GEGLU FFN, proj_in/proj_out): the targets AI Toolkit's LoRA network takes on SD
UNets. With checkpointing, each resnet and each transformer block is a checkpoint, as diffusers does.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

from layers import LoRALinear, attention, conv2d, frozen, group_norm, layer_norm, merge_heads, split_heads


class Resnet(nn.Module):
    def __init__(self, cin, cout, temb_dim, prec):
        super().__init__()
        self.norm1, self.conv1 = group_norm(cin, prec, eps=1e-5), conv2d(cin, cout, 3, prec)
        self.temb = frozen(nn.Linear(temb_dim, cout, device=prec.device, dtype=prec.dtype))
        self.norm2, self.conv2 = group_norm(cout, prec, eps=1e-5), conv2d(cout, cout, 3, prec)
        self.shortcut = conv2d(cin, cout, 1, prec) if cin != cout else None

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb(F.silu(temb))[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return (self.shortcut(x) if self.shortcut is not None else x) + h


class CrossAttention(nn.Module):
    def __init__(self, dim, context_dim, heads, prec, rank):
        super().__init__()
        self.heads = heads
        self.q = LoRALinear(dim, dim, prec, rank, bias=False)
        self.k = LoRALinear(context_dim, dim, prec, rank, bias=False)
        self.v = LoRALinear(context_dim, dim, prec, rank, bias=False)
        self.o = LoRALinear(dim, dim, prec, rank)

    def forward(self, x, context):
        q = split_heads(self.q(x), self.heads)
        k = split_heads(self.k(context), self.heads)
        v = split_heads(self.v(context), self.heads)
        return self.o(merge_heads(attention(q, k, v)))


class BasicTransformerBlock(nn.Module):
    """Self-attention, cross-attention, GEGLU feed-forward (4× width), each pre-LayerNorm."""

    def __init__(self, dim, context_dim, heads, prec, rank):
        super().__init__()
        self.norm1, self.norm2, self.norm3 = (layer_norm(dim, prec, affine=True, eps=1e-5) for _ in range(3))
        self.attn1 = CrossAttention(dim, dim, heads, prec, rank)
        self.attn2 = CrossAttention(dim, context_dim, heads, prec, rank)
        self.ff_in = LoRALinear(dim, 8 * dim, prec, rank)
        self.ff_out = LoRALinear(4 * dim, dim, prec, rank)

    def forward(self, x, context):
        n = self.norm1(x)
        x = x + self.attn1(n, n)
        x = x + self.attn2(self.norm2(x), context)
        h, gate = self.ff_in(self.norm3(x)).chunk(2, dim=-1)
        return x + self.ff_out(h * F.gelu(gate))


class Transformer2D(nn.Module):
    def __init__(self, dim, context_dim, heads, depth, prec, rank):
        super().__init__()
        self.norm = group_norm(dim, prec)
        self.proj_in = LoRALinear(dim, dim, prec, rank)
        self.blocks = nn.ModuleList(BasicTransformerBlock(dim, context_dim, heads, prec, rank) for _ in range(depth))
        self.proj_out = LoRALinear(dim, dim, prec, rank)

    def forward(self, x, context, checkpointing):
        b, c, hgt, wid = x.shape
        h = self.norm(x).permute(0, 2, 3, 1).reshape(b, hgt * wid, c)
        h = self.proj_in(h)
        for block in self.blocks:
            h = checkpoint(block, h, context, use_reentrant=False) if checkpointing else block(h, context)
        h = self.proj_out(h).reshape(b, hgt, wid, c).permute(0, 3, 1, 2)
        return h + x


class Level(nn.Module):
    """One down or up block: resnets, each followed by a transformer where the level has attention."""

    def __init__(self, in_channels, out_channels, temb_dim, attn, depth, heads, context_dim, prec, rank, n_attn=None):
        super().__init__()
        self.resnets = nn.ModuleList(Resnet(cin, cout, temb_dim, prec) for cin, cout in zip(in_channels, out_channels))
        n_attn = len(out_channels) if n_attn is None else n_attn
        self.attns = nn.ModuleList(
            Transformer2D(out_channels[i], context_dim, heads, depth, prec, rank) for i in range(n_attn)) if attn else None


def _run_resnet(resnet, x, temb, checkpointing):
    return checkpoint(resnet, x, temb, use_reentrant=False) if checkpointing else resnet(x, temb)


class UNet(nn.Module):
    def __init__(self, spec, prec, rank):
        super().__init__()
        u = spec["unet"]
        ch, lpb = u["channels"], u["layers_per_block"]
        temb_dim = 4 * ch[0]
        self.base_channels = ch[0]
        self.layout = u
        self.conv_in = conv2d(spec["latent_channels"], ch[0], 3, prec)
        self.time_embedding = frozen(nn.Sequential(
            nn.Linear(ch[0], temb_dim, device=prec.device, dtype=prec.dtype), nn.SiLU(),
            nn.Linear(temb_dim, temb_dim, device=prec.device, dtype=prec.dtype)))
        self.add_embedding = None
        if u["add_embedding_dim"]:  # SDXL: pooled text + size/crop ids → added to the time embedding
            self.add_embedding = frozen(nn.Sequential(
                nn.Linear(u["add_embedding_dim"], temb_dim, device=prec.device, dtype=prec.dtype), nn.SiLU(),
                nn.Linear(temb_dim, temb_dim, device=prec.device, dtype=prec.dtype)))
        ctx, n = u["context_dim"], len(ch)
        self.down, self.downsamplers = nn.ModuleList(), nn.ModuleList()
        skips = [ch[0]]
        prev = ch[0]
        for i, c in enumerate(ch):
            ins = [prev] + [c] * (lpb - 1)
            self.down.append(Level(ins, [c] * lpb, temb_dim, u["attention"][i], u["depth"][i], u["heads"][i], ctx, prec, rank))
            skips += [c] * lpb
            prev = c
            if i < n - 1:
                self.downsamplers.append(conv2d(c, c, 3, prec, stride=2, padding=1))
                skips.append(c)
        # diffusers mid block: resnet, attention, resnet
        self.mid = Level([ch[-1], ch[-1]], [ch[-1], ch[-1]], temb_dim, True, u["mid_depth"], u["heads"][-1], ctx, prec,
                         rank, n_attn=1)
        self.up, self.upsamplers = nn.ModuleList(), nn.ModuleList()
        for i, c in enumerate(reversed(ch)):
            level = n - 1 - i
            ins = []
            for _ in range(lpb + 1):
                ins.append(prev + skips.pop())
                prev = c
            self.up.append(Level(ins, [c] * (lpb + 1), temb_dim, u["attention"][level], u["depth"][level],
                                 u["heads"][level], ctx, prec, rank))
            if i < n - 1:
                self.upsamplers.append(conv2d(c, c, 3, prec))
        self.norm_out = group_norm(ch[0], prec, eps=1e-5)
        self.conv_out = conv2d(ch[0], spec["latent_channels"], 3, prec)

    def make_inputs(self, side, batch, spec, prec):
        dev, dt = prec.device, prec.dtype
        u = spec["unet"]
        return dict(
            latents=torch.randn(batch, spec["latent_channels"], side, side, device=dev, dtype=dt),
            context=torch.randn(batch, spec["text_tokens"], u["context_dim"], device=dev, dtype=dt),
            added=torch.randn(batch, u["add_embedding_dim"], device=dev, dtype=dt) if u["add_embedding_dim"] else None,
            target=torch.randn(batch, spec["latent_channels"], side, side, device=dev, dtype=dt),
        )

    def _time(self, batch, added, device, dtype):
        half = self.base_channels // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=device, dtype=torch.float32) / half)
        t = torch.full((batch, 1), 500.0, device=device) * freqs[None]
        temb = self.time_embedding(torch.cat([t.cos(), t.sin()], dim=-1).to(dtype))
        if self.add_embedding is not None:
            temb = temb + self.add_embedding(added)
        return temb

    def _level(self, level, x, temb, context, checkpointing, skips=None):
        outs = []
        for i, resnet in enumerate(level.resnets):
            if skips is not None:
                x = torch.cat([x, skips.pop()], dim=1)
            x = _run_resnet(resnet, x, temb, checkpointing)
            if level.attns is not None:
                x = level.attns[i](x, context, checkpointing)
            outs.append(x)
        return x, outs

    def encode(self, latents, context, added, checkpointing, hint=None):
        """The time embedding, the down path's skip connections and the mid block's output. `hint` (a
        ControlNet's conditioning on the latent grid) is added to conv_in's output."""
        temb = self._time(latents.shape[0], added, latents.device, latents.dtype)
        x = self.conv_in(latents)
        if hint is not None:
            x = x + hint
        skips = [x]
        for i, level in enumerate(self.down):
            x, outs = self._level(level, x, temb, context, checkpointing)
            skips += outs
            if i < len(self.downsamplers):
                x = self.downsamplers[i](x)
                skips.append(x)
        x = _run_resnet(self.mid.resnets[0], x, temb, checkpointing)
        x = self.mid.attns[0](x, context, checkpointing)
        x = _run_resnet(self.mid.resnets[1], x, temb, checkpointing)
        return temb, x, skips

    def decode(self, x, temb, context, checkpointing, skips):
        """The up path from the mid block's output, taking the skip connections from the end."""
        for i, level in enumerate(self.up):
            x, _ = self._level(level, x, temb, context, checkpointing, skips)
            if i < len(self.upsamplers):
                x = self.upsamplers[i](F.interpolate(x, scale_factor=2.0, mode="nearest"))
        return self.conv_out(F.silu(self.norm_out(x)))

    def forward(self, latents, context, added, checkpointing):
        temb, x, skips = self.encode(latents, context, added, checkpointing)
        return self.decode(x, temb, context, checkpointing, skips)
