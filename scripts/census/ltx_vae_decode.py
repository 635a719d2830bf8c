"""The LTX video VAE decoder's working memory on the CPU, for memory.yaml's `ltx` decode figure: the profiler's peak of
live bytes over one decode under no_grad (its latent input counted), bf16, at reduced channel widths, per output
frame-pixel per element byte (K, as memory.yaml writes decode_k), from the slope over the output's frame-pixels.

The decoder is ComfyUI's at edee33f (comfy/ldm/lightricks/vae/causal_video_autoencoder.py Decoder, read in the
PhoenixCreation/ComfyUI-TPU mirror of upstream) with the layout VideoVAE.guess_config gives version 2 (LTX-Video 0.9.5+
and the LTX-2 family): 128 latent channels into conv_in at 1024, then four stacks of 5 ResnetBlock3Ds (pixel norm,
timestep scale and shift, SiLU, 3×3×3 convolutions) at 1024, 512, 256 and 128 channels with a residual
DepthToSpaceUpsample (×2 in time, height and width, the channels halved) between each, pixel norm, timestep scale and
shift, SiLU, conv_out to 3 × 4 × 4 and the unpatchify to pixels. Every convolution is CausalConv3d as the decoder runs
it (causal_decoder false: the first and last frame repeated once each and concatenated, a copy of the input) with
reflect padding in space (PyTorch pads a copy for it). The whole clip goes through at once (ComfyUI's LTX decode has
no frame cache). Not applied to the estimate: memory.yaml's decode_k stays ComfyUI's own planning figure, since the
GPU's factor over this allocated-tensor floor (cuDNN's 3D-convolution workspaces, the allocator) is not measured.

  /usr/bin/python3 scripts/census/ltx_vae_decode.py > tests/census/ltx-vae-decode.json
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)

census.use_layers()

DTYPE = torch.bfloat16
LATENT_CHANNELS = 128
PATCH = 4
# guess_config(version 2)'s decoder_blocks, from the latent end: (resnets, channels) per stack
STACKS = ((5, 1024), (5, 512), (5, 256), (5, 128))


def pixel_norm(x, eps=1e-8):
    return x / torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + eps)


class Conv(nn.Module):
    """CausalConv3d(causal=False) over reflect padding: the time pad concatenated, the space pad a copy inside Conv3d."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, 3, padding=(0, 1, 1), padding_mode="reflect", dtype=DTYPE)

    def forward(self, x):
        x = torch.cat((x[:, :, :1].repeat(1, 1, 1, 1, 1), x, x[:, :, -1:].repeat(1, 1, 1, 1, 1)), dim=2)
        return self.conv(x)


class Resnet(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv1, self.conv2 = Conv(dim, dim), Conv(dim, dim)
        self.table = nn.Parameter(torch.randn(4, dim, dtype=DTYPE) / dim**0.5)

    def forward(self, x, temb):
        shift1, scale1, shift2, scale2 = (self.table[None, :, :, None, None, None] + temb.reshape(1, 4, -1, 1, 1, 1)).unbind(dim=1)
        h = pixel_norm(x)
        h = h * (1 + scale1) + shift1
        h = F.silu(h)
        h = self.conv1(h)
        h = pixel_norm(h)
        h = h * (1 + scale2) + shift2
        h = F.silu(h)
        h = self.conv2(h)
        return x + h


class Upsample(nn.Module):
    """DepthToSpaceUpsample, stride (2, 2, 2), residual, channels halved: the input rearranged and repeated beside the
    convolution's rearranged output, the first frame dropped from both."""

    def __init__(self, dim):
        super().__init__()
        self.conv = Conv(dim, 8 * dim // 2)

    def forward(self, x):
        b, c, d, h, w = x.shape
        x_in = x.reshape(b, c // 8, 2, 2, 2, d, h, w).permute(0, 1, 5, 2, 6, 3, 7, 4).reshape(b, c // 8, 2 * d, 2 * h, 2 * w)
        x_in = x_in.repeat(1, 4, 1, 1, 1)[:, :, 1:]
        y = self.conv(x)
        c2 = y.shape[1] // 8
        y = y.reshape(b, c2, 2, 2, 2, d, h, w).permute(0, 1, 5, 2, 6, 3, 7, 4).reshape(b, c2, 2 * d, 2 * h, 2 * w)[:, :, 1:]
        return y + x_in


class Decoder(nn.Module):
    def __init__(self, divisor):
        super().__init__()
        widths = [c // divisor for _, c in STACKS]
        self.conv_in = Conv(LATENT_CHANNELS, widths[0])
        self.stacks = nn.ModuleList(nn.ModuleList(Resnet(c) for _ in range(n)) for (n, _), c in zip(STACKS, widths))
        self.ups = nn.ModuleList(Upsample(c) for c in widths[:-1])
        self.table = nn.Parameter(torch.randn(2, widths[-1], dtype=DTYPE))
        self.conv_out = Conv(widths[-1], 3 * PATCH * PATCH)
        self.temb = [torch.randn(4 * c, dtype=DTYPE) for c in widths]
        self.last = torch.randn(2 * widths[-1], dtype=DTYPE)

    def forward(self, z):
        x = self.conv_in(z)
        for i, stack in enumerate(self.stacks):
            for resnet in stack:
                x = resnet(x, self.temb[i])
            if i < len(self.ups):
                x = self.ups[i](x)
        x = pixel_norm(x)
        shift, scale = (self.table[None, :, :, None, None, None] + self.last.reshape(1, 2, -1, 1, 1, 1)).unbind(dim=1)
        x = F.silu(x * (1 + scale) + shift)
        x = self.conv_out(x)
        b, _, f, h, w = x.shape
        return x.reshape(b, 3, PATCH, PATCH, f, h, w).permute(0, 1, 4, 5, 3, 6, 2).reshape(b, 3, f, h * PATCH, w * PATCH)


def measure(divisor, sizes, latent_frames):
    decoder = Decoder(divisor).eval()
    decoder.requires_grad_(False)
    rows = []
    for side in sizes:
        for t in latent_frames:
            z = torch.randn(1, LATENT_CHANNELS, t, side, side, dtype=DTYPE)
            timeline = census.inference_timeline(lambda: decoder(z))
            frames = 8 * (t - 1) + 1
            px = side * 32 * side * 32 * frames
            rows.append({"latent_side": side, "latent_frames": t, "output_frame_pixels": px,
                         "peak_bytes": timeline.peak + census.storage_bytes(z)})
    per_px, intercept = census.fit([r["output_frame_pixels"] for r in rows], [r["peak_bytes"] for r in rows])
    return {"channel_divisor": divisor, "rows": rows, "bytes_per_output_frame_pixel": round(per_px, 3), "intercept_bytes": round(intercept)}


def released(runs):
    """Bytes per output frame-pixel at the released widths: the maps of the stacks scale as 1/divisor, conv_out's 48
    channels and the image do not, so two divisors give both parts (b = maps / divisor + fixed)."""
    (d1, b1), (d2, b2) = ((r["channel_divisor"], r["bytes_per_output_frame_pixel"]) for r in runs[:2])
    maps = (b1 - b2) / (1 / d1 - 1 / d2)
    fixed = b1 - maps / d1
    return {"maps": round(maps, 1), "fixed": round(fixed, 1), "bytes_per_output_frame_pixel": round(maps + fixed, 1),
            "decode_k": round((maps + fixed) / 2, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    # At divisors of 16 and more the peak moves to conv_out's 48 unscaled channels: 2 and 4 keep it in the last stack.
    ap.add_argument("--divisors", default="2,4")
    ap.add_argument("--sizes", default="4,6")
    ap.add_argument("--latent-frames", default="2,3")
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    torch.set_num_threads(2)
    sizes = [int(s) for s in args.sizes.split(",")]
    frames = [int(t) for t in args.latent_frames.split(",")]
    runs = [measure(int(d), sizes, frames) for d in args.divisors.split(",")]
    json.dump({"torch": torch.__version__.split("+")[0], "runs": runs, "released": released(runs)}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
