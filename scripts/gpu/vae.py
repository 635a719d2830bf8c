"""VAE decoders at the released channel widths, for the decode working memory per output pixel.

KLDecoder is diffusers' AutoencoderKL decoder (SD/SDXL, FLUX.1, SD3 VAEs: only the latent channels
differ). WanDecoder is the Wan 2.1 causal 3D decoder, also Qwen-Image's VAE. HunyuanDecoder is HunyuanVideo's
causal 3D decoder (diffusers AutoencoderKLHunyuanVideo), which decodes every latent frame it is given at once.
Decoding runs in bf16 under no_grad, as AI Toolkit's sampling does.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import attention, conv2d, frozen, group_norm


class KLResnet(nn.Module):
    """GroupNorm(32), SiLU, 3×3 conv, twice; a 1×1 shortcut where the width changes. `conv` makes the
    convolutions: 2-D for the KL decoder, HunyuanVideo's causal 3-D ones for its ResnetBlockCausal3D."""

    def __init__(self, cin, cout, prec, conv=conv2d):
        super().__init__()
        self.norm1, self.conv1 = group_norm(cin, prec), conv(cin, cout, 3, prec)
        self.norm2, self.conv2 = group_norm(cout, prec), conv(cout, cout, 3, prec)
        self.shortcut = conv(cin, cout, 1, prec) if cin != cout else None

    def forward(self, x):
        h = self.conv2(F.silu(self.norm2(self.conv1(F.silu(self.norm1(x))))))
        return (self.shortcut(x) if self.shortcut is not None else x) + h


class KLAttention(nn.Module):
    """The mid-block attention: one head as wide as the channels, over every latent pixel."""

    def __init__(self, dim, prec):
        super().__init__()
        self.norm = group_norm(dim, prec)
        self.q, self.k, self.v, self.o = (
            frozen(nn.Linear(dim, dim, device=prec.device, dtype=prec.dtype)) for _ in range(4))

    def forward(self, x):
        b, c, h, w = x.shape
        n = self.norm(x).view(b, c, h * w).transpose(1, 2)
        q, k, v = (t(n).unsqueeze(1) for t in (self.q, self.k, self.v))
        out = self.o(attention(q, k, v).squeeze(1))
        return x + out.transpose(1, 2).reshape(b, c, h, w)


class KLUpsample(nn.Module):
    """The ×2 nearest upsample, then a 3×3 conv."""

    def __init__(self, dim, prec):
        super().__init__()
        self.conv = conv2d(dim, dim, 3, prec)

    def forward(self, x):
        return self.conv(F.interpolate(x, scale_factor=2.0, mode="nearest"))


class KLDecoder(nn.Module):
    """diffusers' AutoencoderKL decoder: conv_in, mid block (resnet, attention, resnet), four up blocks of
    layers_per_block + 1 resnets with an upsample between them, norm, conv_out. HunyuanDecoder is the same
    layout on its causal 3-D parts, passed in."""

    def __init__(self, spec, prec, conv=conv2d, resnet=KLResnet, attn=KLAttention, upsample=None):
        super().__init__()
        v = spec["vae"]
        widths = list(reversed(v["block_out_channels"]))  # 512, 512, 256, 128
        layers = v["layers_per_block"] + 1
        upsample = upsample or (lambda c, i: KLUpsample(c, prec))
        self.conv_in = conv(spec["latent_channels"], widths[0], 3, prec)
        self.mid = nn.ModuleList([resnet(widths[0], widths[0], prec), attn(widths[0], prec), resnet(widths[0], widths[0], prec)])
        self.ups = nn.ModuleList()
        self.upsamplers = nn.ModuleList()
        prev = widths[0]
        for i, c in enumerate(widths):
            self.ups.append(nn.ModuleList(resnet(prev if j == 0 else c, c, prec) for j in range(layers)))
            prev = c
            if i < len(widths) - 1:
                self.upsamplers.append(upsample(c, i))
        self.norm_out = group_norm(widths[-1], prec)
        self.conv_out = conv(widths[-1], 3, 3, prec)

    def make_latents(self, spec, width, height, frames, prec):
        f = spec["spatial"]
        return torch.randn(1, spec["latent_channels"], height // f, width // f, device=prec.device, dtype=prec.dtype)

    def forward(self, z, temporal=None):
        # `temporal` is the runner's one call shape; this layout's upsamplers already know what they scale.
        x = self.conv_in(z)
        for m in self.mid:
            x = m(x)
        for i, resnets in enumerate(self.ups):
            for r in resnets:
                x = r(x)
            if i < len(self.upsamplers):
                x = self.upsamplers[i](x)
        return self.conv_out(F.silu(self.norm_out(x)))


class KLDownsample(nn.Module):
    """diffusers' Downsample2D in the encoder: pad right and bottom by one (a copy), then a 3×3 conv of stride 2."""

    def __init__(self, dim, prec):
        super().__init__()
        self.conv = conv2d(dim, dim, 3, prec, stride=2, padding=0)

    def forward(self, x):
        return self.conv(F.pad(x, (0, 1, 0, 1)))


class KLEncoder(nn.Module):
    """diffusers' AutoencoderKL encoder and what encode() adds: conv_in, four down blocks of layers_per_block
    resnets with a downsample after all but the last, mid block (resnet, attention, resnet), norm, conv_out to
    the mean and log-variance, quant_conv where the model has one, and latent_dist.sample()."""

    def __init__(self, spec, prec):
        super().__init__()
        v = spec["vae"]
        widths = list(v["block_out_channels"])  # 128, 256, 512, 512
        z2 = 2 * spec["latent_channels"]
        self.conv_in = conv2d(3, widths[0], 3, prec)
        self.downs = nn.ModuleList()
        self.downsamplers = nn.ModuleList()
        prev = widths[0]
        for i, c in enumerate(widths):
            self.downs.append(nn.ModuleList(KLResnet(prev if j == 0 else c, c, prec) for j in range(v["layers_per_block"])))
            prev = c
            if i < len(widths) - 1:
                self.downsamplers.append(KLDownsample(c, prec))
        self.mid = nn.ModuleList([KLResnet(prev, prev, prec), KLAttention(prev, prec), KLResnet(prev, prev, prec)])
        self.norm_out = group_norm(prev, prec)
        self.conv_out = conv2d(prev, z2, 3, prec)
        self.quant_conv = conv2d(z2, z2, 1, prec) if v.get("quant_conv", True) else None

    def make_images(self, width, height, prec):
        return torch.randn(1, 3, height, width, device=prec.device, dtype=prec.dtype)

    def forward(self, x):
        x = self.conv_in(x)
        for i, resnets in enumerate(self.downs):
            for r in resnets:
                x = r(x)
            if i < len(self.downsamplers):
                x = self.downsamplers[i](x)
        for m in self.mid:
            x = m(x)
        moments = self.conv_out(F.silu(self.norm_out(x)))
        if self.quant_conv is not None:
            moments = self.quant_conv(moments)
        mean, logvar = moments.chunk(2, dim=1)
        std = torch.exp(0.5 * logvar.clamp(-30.0, 20.0))
        return mean + std * torch.randn_like(mean)


class CausalConv3d(nn.Conv3d):
    """Wan's causal conv: pads two frames in front (the chunked decode's feature cache holds the same
    two frames), pads space symmetrically, then convolves without padding."""

    def __init__(self, cin, cout, kernel, prec):
        kt, ks = (kernel, kernel) if isinstance(kernel, int) else (kernel[0], kernel[1])
        super().__init__(cin, cout, (kt, ks, ks), device=prec.device, dtype=prec.dtype)
        self.requires_grad_(False)
        self.pad = (ks // 2, ks // 2, ks // 2, ks // 2, kt - 1, 0)

    def forward(self, x):
        return super().forward(F.pad(x, self.pad))


class RMSNorm3d(nn.Module):
    """Wan RMS_norm: F.normalize over the channels, × sqrt(C) × gamma."""

    def __init__(self, dim, prec, spatial_dims=3):
        super().__init__()
        self.scale = dim ** 0.5
        shape = (dim,) + (1,) * spatial_dims
        self.gamma = nn.Parameter(torch.ones(shape, device=prec.device, dtype=prec.dtype), requires_grad=False)

    def forward(self, x):
        return F.normalize(x, dim=1) * self.scale * self.gamma


class WanResidual(nn.Module):
    def __init__(self, cin, cout, prec):
        super().__init__()
        self.norm1, self.conv1 = RMSNorm3d(cin, prec), CausalConv3d(cin, cout, 3, prec)
        self.norm2, self.conv2 = RMSNorm3d(cout, prec), CausalConv3d(cout, cout, 3, prec)
        self.shortcut = CausalConv3d(cin, cout, 1, prec) if cin != cout else None

    def forward(self, x):
        h = self.shortcut(x) if self.shortcut is not None else x
        return h + self.conv2(F.silu(self.norm2(self.conv1(F.silu(self.norm1(x))))))


def frames_to_batch(x):
    b, c, t, h, w = x.shape
    return x.permute(0, 2, 1, 3, 4).reshape(b * t, c, h, w), t


def batch_to_frames(x, t):
    bt, c, h, w = x.shape
    return x.view(bt // t, t, c, h, w).permute(0, 2, 1, 3, 4)


class WanAttention(nn.Module):
    """Per-frame single-head attention over the latent pixels (Wan AttentionBlock)."""

    def __init__(self, dim, prec):
        super().__init__()
        self.norm = RMSNorm3d(dim, prec, spatial_dims=2)
        self.qkv = conv2d(dim, 3 * dim, 1, prec)
        self.proj = conv2d(dim, dim, 1, prec)

    def forward(self, x):
        identity = x
        x, t = frames_to_batch(x)
        bt, c, h, w = x.shape
        qkv = self.qkv(self.norm(x)).reshape(bt, 1, 3 * c, h * w).permute(0, 1, 3, 2).contiguous()
        q, k, v = qkv.chunk(3, dim=-1)
        out = attention(q, k, v).squeeze(1).permute(0, 2, 1).reshape(bt, c, h, w)
        return identity + batch_to_frames(self.proj(out), t)


def upsample2x_exact(x):
    """Wan's nearest-exact ×2. torch 1.13 has no CPU bf16 kernel for it; at an integer ×2 plain nearest picks
    the same source pixels (floor((i + 0.5) / 2) = floor(i / 2)), so the census uses that there."""
    old_cpu_bf16 = x.device.type == "cpu" and x.dtype == torch.bfloat16 and int(torch.__version__.split(".")[0]) < 2
    return F.interpolate(x, scale_factor=2.0, mode="nearest" if old_cpu_bf16 else "nearest-exact")


class WanUpsample(nn.Module):
    """Resample: optional temporal doubling (time_conv to 2·C, frames interleaved), then per frame a
    nearest-exact ×2 and a 3×3 conv that halves the channels."""

    def __init__(self, dim, temporal, prec):
        super().__init__()
        self.time_conv = CausalConv3d(dim, 2 * dim, (3, 1), prec) if temporal else None
        self.conv = conv2d(dim, dim // 2, 3, prec)

    def forward(self, x, temporal):
        if self.time_conv is not None and temporal:
            b, c, t, h, w = x.shape
            x = self.time_conv(x).reshape(b, 2, c, t, h, w)
            x = torch.stack((x[:, 0], x[:, 1]), 3).reshape(b, c, 2 * t, h, w)
        x, t = frames_to_batch(x)
        x = self.conv(upsample2x_exact(x))
        return batch_to_frames(x, t)


class WanDecoder(nn.Module):
    def __init__(self, spec, prec):
        super().__init__()
        v = spec["vae"]
        dim, mult = v["base_dim"], v["dim_mult"]
        dims = [dim * m for m in (mult[-1],) + tuple(reversed(mult))]  # 384, 384, 384, 192, 96
        self.conv1 = CausalConv3d(spec["latent_channels"], dims[0], 3, prec)
        self.mid = nn.ModuleList([WanResidual(dims[0], dims[0], prec), WanAttention(dims[0], prec),
                                  WanResidual(dims[0], dims[0], prec)])
        self.stages = nn.ModuleList()
        for i, (cin, cout) in enumerate(zip(dims[:-1], dims[1:])):
            cin = cin // 2 if i > 0 else cin  # the previous stage's upsample halved the channels
            blocks = nn.ModuleList()
            for _ in range(v["res_blocks"] + 1):
                blocks.append(WanResidual(cin, cout, prec))
                cin = cout
            up = WanUpsample(cout, v["temporal_upsample"][i], prec) if i < len(mult) - 1 else None
            self.stages.append(nn.ModuleDict(dict(blocks=blocks, up=up) if up is not None else dict(blocks=blocks)))
        self.norm_out = RMSNorm3d(dims[-1], prec)
        self.conv_out = CausalConv3d(dims[-1], 3, 3, prec)

    def make_latents(self, spec, width, height, frames, prec):
        f = spec["spatial"]
        return torch.randn(1, spec["latent_channels"], 1, height // f, width // f, device=prec.device, dtype=prec.dtype)

    def forward(self, z, temporal=False):
        x = self.conv1(z)
        for m in self.mid:
            x = m(x)
        for stage in self.stages:
            for block in stage["blocks"]:
                x = block(x)
            if "up" in stage:
                x = stage["up"](x, temporal)
        return self.conv_out(F.silu(self.norm_out(x)))


class HyCausalConv3d(nn.Conv3d):
    """HunyuanVideoCausalConv3d: pads k−1 frames in front and space on both sides (replicate in the model; a
    constant pad here, torch 1.13 has no CPU bf16 replicate pad for 5D, and the padded tensor is the same size),
    then convolves without padding."""

    def __init__(self, cin, cout, kernel, prec):
        super().__init__(cin, cout, kernel, device=prec.device, dtype=prec.dtype)
        self.requires_grad_(False)
        self.pad = (kernel // 2, kernel // 2, kernel // 2, kernel // 2, kernel - 1, 0)

    def forward(self, x):
        return super().forward(F.pad(x, self.pad))


def hy_resnet(cin, cout, prec):
    """ResnetBlockCausal3D: the KL resnet on causal 3×3×3 convolutions."""
    return KLResnet(cin, cout, prec, conv=HyCausalConv3d)


class HyAttention(nn.Module):
    """The mid-block attention: one head over every latent token of every frame (t·h·w), with the causal mask
    prepare_causal_attention_mask builds, a (t·h·w)² tensor in the decoder's dtype, alive through the call."""

    def __init__(self, dim, prec):
        super().__init__()
        self.norm = group_norm(dim, prec)
        self.q, self.k, self.v, self.o = (
            frozen(nn.Linear(dim, dim, device=prec.device, dtype=prec.dtype)) for _ in range(4))

    def forward(self, x):
        b, c, t, h, w = x.shape
        n = self.norm(x).permute(0, 2, 3, 4, 1).reshape(b, t * h * w, c)
        mask = torch.full((t * h * w, t * h * w), float("-inf"), dtype=x.dtype, device=x.device)
        q, k, v = (lin(n).unsqueeze(1) for lin in (self.q, self.k, self.v))
        out = self.o(attention(q, k, v).squeeze(1))
        del mask
        return x + out.reshape(b, t, h, w, c).permute(0, 4, 1, 2, 3)


class HyUpsample(nn.Module):
    """HunyuanVideoUpsampleCausal3D: the first frame ×2 in space only, the others ×2 in time too (nearest), then
    concatenated and a causal 3×3×3 conv."""

    def __init__(self, dim, temporal, prec):
        super().__init__()
        self.temporal = temporal
        self.conv = HyCausalConv3d(dim, dim, 3, prec)

    def forward(self, x):
        first, rest = x[:, :, :1], x[:, :, 1:]
        first = F.interpolate(first.squeeze(2), scale_factor=2.0, mode="nearest").unsqueeze(2)
        if rest.shape[2] > 0:
            rest = F.interpolate(rest.contiguous(), scale_factor=(2.0 if self.temporal else 1.0, 2.0, 2.0), mode="nearest")
            x = torch.cat((first, rest), 2)
        else:
            x = first
        return self.conv(x)


class HunyuanDecoder(KLDecoder):
    """The KL layout on causal 3-D parts: spatial ×2 in the first three upsamples, time ×2 in the second and third
    (temporal_upsample)."""

    def __init__(self, spec, prec):
        temporal = spec["vae"]["temporal_upsample"]
        super().__init__(spec, prec, conv=HyCausalConv3d, resnet=hy_resnet, attn=HyAttention,
                         upsample=lambda c, i: HyUpsample(c, temporal[i], prec))

    def make_latents(self, spec, width, height, frames, prec):
        f = spec["spatial"]
        t = spec.get("latent_frames", 1)
        return torch.randn(1, spec["latent_channels"], t, height // f, width // f, device=prec.device, dtype=prec.dtype)


def build_decoder(spec, prec):
    layout = spec["layout"]
    return KLDecoder(spec, prec) if layout == "kl_f8" else HunyuanDecoder(spec, prec) if layout == "hunyuan" else WanDecoder(spec, prec)
