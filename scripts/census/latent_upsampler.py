"""The LTX latent upsampler's working memory on the CPU, for the ComfyUI estimate (rules/comfyui.yaml side_models,
role latent_upscale_model): LTXVLatentUpsampler (comfy_extras/nodes_lt_upsampler.py) runs it on the first pass's
latent outside the memory manager. Written from its structure (comfy/ldm/lightricks/latent_upsampler.py, dims 3, a
spatial ×2 without the rational resampler): a 3×3×3 convolution from the latent's channels to the middle width with
GroupNorm and SiLU, residual blocks of two such convolutions at the latent's size, a per-frame 3×3 convolution to four
times the width and a 2×2 pixel shuffle, as many residual blocks at the doubled size, and a convolution back to the
latent's channels. No layer works in place.

Two figures per output latent position, as slopes over a few latent sizes, in bf16 (ComfyUI's vae_dtype):
- `peak`: live tensors only (the op's scratch left out): what the GPU holds when cuDNN runs the 3-D convolutions;
- `peak_with_scratch`: oneDNN off, so the 3-D convolutions take slow_conv3d and its column buffer (middle width × 27
  × positions per sample), the path PyTorch 2.9-2.10 takes for a bf16 nn.Conv3d with cuDNN before 9.15. (The
  per-frame 2-D convolution's im2col scratch is in it too, far smaller: on the GPU cuDNN runs it in either case.)
The middle width is reduced (the figures are linear in it) so the CPU's bf16 GEMMs finish; `model` gives what the
estimate counts at that width, to compare.

  /usr/bin/python3 scripts/census/latent_upsampler.py > tests/census/latent-upsampler.json
"""

import sys

sys.dont_write_bytecode = True

import json  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

census.use_layers()

LATENT = 128                   # LTX-2's latent channels
MIDDLES = (64, 128)            # reduced middle widths (LTX-2's spatial upscaler x2 1.0 has 1024)
BLOCKS = 4                     # residual blocks before and after the upsampling
SIZES = ((3, 4, 6), (3, 6, 8), (5, 6, 8))  # latent frames, height, width of the input


def conv3(cin, cout):
    return nn.Conv3d(cin, cout, 3, padding=1)


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv1, self.norm1 = conv3(width, width), nn.GroupNorm(32, width)
        self.conv2, self.norm2 = conv3(width, width), nn.GroupNorm(32, width)

    def forward(self, x):
        h = F.silu(self.norm1(self.conv1(x)))
        h = self.norm2(self.conv2(h))
        return F.silu(h + x)


class Upsampler(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv_in, self.norm_in = conv3(LATENT, width), nn.GroupNorm(32, width)
        self.before = nn.ModuleList(ResBlock(width) for _ in range(BLOCKS))
        self.widen = nn.Conv2d(width, 4 * width, 3, padding=1)
        self.after = nn.ModuleList(ResBlock(width) for _ in range(BLOCKS))
        self.conv_out = conv3(width, LATENT)

    def forward(self, latent):
        b, _, f, h, w = latent.shape
        x = F.silu(self.norm_in(self.conv_in(latent)))
        for block in self.before:
            x = block(x)
        x = x.permute(0, 2, 1, 3, 4).reshape(b * f, -1, h, w)       # per frame (a copy)
        x = F.pixel_shuffle(self.widen(x), 2)                        # 2-D, 2×2
        x = x.reshape(b, f, -1, 2 * h, 2 * w).permute(0, 2, 1, 3, 4).contiguous()  # back to b c f h w (a copy)
        for block in self.after:
            x = block(x)
        return self.conv_out(x)


def measure(model, latent):
    tl = census.inference_timeline(lambda: model(latent))
    return tl.peak, tl.peak_with_scratch


def main():
    torch.set_num_threads(2)
    torch.backends.mkldnn.enabled = False  # slow_conv3d, as CUDA without cuDNN
    dtype, elem = torch.bfloat16, 2
    torch.manual_seed(0)
    out = dict(latent_channels=LATENT, blocks=BLOCKS, dtype="bfloat16", torch=torch.__version__, device="cpu", widths={})
    for width in MIDDLES:
        model = Upsampler(width).to(dtype).eval()
        rows = []
        for f, h, w in SIZES:
            latent = torch.randn(1, LATENT, f, h, w, dtype=dtype)
            peak, with_scratch = measure(model, latent)
            rows.append(dict(frames=f, h=h, w=w, out_positions=f * 4 * h * w, peak=peak, peak_with_scratch=with_scratch))
        xs = [r["out_positions"] for r in rows]
        slope = lambda key: census.fit(xs, [r[key] for r in rows])[0]  # noqa: E731
        # The estimate: four maps of the middle width at the end of an after-block (its input, the second norm's
        # output, their sum and its SiLU); under slow_conv3d a convolution's columns (width × 27) beside three (the
        # block's input, the convolution's input and output).
        maps, columns = 4 * width * elem, (27 + 3) * width * elem
        out["widths"][str(width)] = dict(rows=rows, peak_per_out_position=round(slope("peak"), 1),
                                         with_scratch_per_out_position=round(slope("peak_with_scratch"), 1),
                                         model=maps, model_with_columns=columns)
        print("width %d: peak %.0f B/pos (model %d), with scratch %.0f (model %d)" % (
            width, slope("peak"), maps, slope("peak_with_scratch"), columns), file=sys.stderr)
    print(json.dumps(out, indent=4))


if __name__ == "__main__":
    main()
