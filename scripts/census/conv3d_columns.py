"""What a half-precision 3D convolution costs without cuDNN: PyTorch's slow_conv3d unfolds its input into a column
buffer of C_in·kT·kH·kW × T_out·H·W elements per sample (vol2col), the path PyTorch 2.9 takes for bf16/fp16 Conv3d on
CUDA with cuDNN before 9.15 (memory.yaml `vol2col_channels`). The CPU runs the same algorithm when oneDNN is off, so
its allocator events give the buffer's size and, over one residual block of the Wan / Qwen-Image coder at its
full-resolution width (96 channels, 3×3×3, a causal chunk with the 2 cached frames before it), the peak the estimate
counts: the columns of one convolution beside the block's live maps. Written from the coder's structure (diffusers
AutoencoderKLWan's residual block: RMS norm over channels, SiLU, causal conv, twice, plus the input): allocated tensors
only, the op's scratch (the columns) kept.

  /usr/bin/python3 scripts/census/conv3d_columns.py > tests/census/conv3d-columns.json
"""

import sys

sys.dont_write_bytecode = True

import json  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

census.use_layers()

CHANNELS = 96             # the Wan 2.1 / Qwen-Image coder's full-resolution width (base_dim 96)
CACHED = 2                # frames a causal convolution takes from the previous chunk (CACHE_T)
SIDES = ((40, 52), (60, 104), (80, 104))  # output pixels per frame (kept small: the columns are 27× the input)


class RmsNorm(nn.Module):
    """Normalizes over the channels and scales by sqrt(C) and a gain, as the coder's RMS norm does."""

    def __init__(self, channels):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(channels, 1, 1, 1))
        self.scale = channels ** 0.5

    def forward(self, x):
        return F.normalize(x, dim=1) * self.scale * self.gain


class CausalConv(nn.Conv3d):
    """3×3×3, padded in space only: the time padding is the cached frames put before the chunk."""

    def __init__(self, channels):
        super().__init__(channels, channels, 3, padding=(0, 1, 1))

    def forward(self, x, cached):
        return super().forward(torch.cat([cached, x], dim=2))


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.norm1, self.conv1 = RmsNorm(channels), CausalConv(channels)
        self.norm2, self.conv2 = RmsNorm(channels), CausalConv(channels)

    def forward(self, x, cache1, cache2):
        h = self.conv1(F.silu(self.norm1(x)), cache1)
        h = self.conv2(F.silu(self.norm2(h)), cache2)
        return x + h


def measure(fn):
    return census.inference_timeline(fn).peak_with_scratch  # the column buffer is the convolution's own scratch: kept


def main():
    torch.set_num_threads(2)
    torch.backends.mkldnn.enabled = False  # slow_conv3d, as CUDA without cuDNN
    dtype = torch.bfloat16
    elem = 2
    torch.manual_seed(0)
    conv = CausalConv(CHANNELS).to(dtype).eval()
    block = ResidualBlock(CHANNELS).to(dtype).eval()
    out = dict(channels=CHANNELS, dtype="bfloat16", torch=torch.__version__, device="cpu", chunks={})
    for frames in (1, 4):
        rows = []
        for h, w in SIDES:
            x = torch.randn(1, CHANNELS, frames, h, w, dtype=dtype)
            cache1 = torch.randn(1, CHANNELS, CACHED, h, w, dtype=dtype)
            cache2 = torch.randn(1, CHANNELS, CACHED, h, w, dtype=dtype)
            conv_peak = measure(lambda: conv(x, cache1))
            block_peak = measure(lambda: block(x, cache1, cache2))
            rows.append(dict(h=h, w=w, conv_peak=conv_peak, block_peak=block_peak,
                             columns_formula=CHANNELS * 27 * frames * h * w * elem))
        px = [r["h"] * r["w"] for r in rows]
        slope = lambda key: census.fit(px, [r[key] for r in rows])[0] / elem  # noqa: E731
        out["chunks"][str(frames)] = dict(
            rows=rows,
            conv_k=round(slope("conv_peak"), 1),
            block_k=round(slope("block_peak"), 1),
            model_k=CHANNELS * 27 * frames + CHANNELS * (4 * frames + 2))
        print("T=%d conv K %.0f, block K %.0f (model %d)" % (frames, slope("conv_peak"), slope("block_peak"),
                                                             out["chunks"][str(frames)]["model_k"]), file=sys.stderr)
    print(json.dumps(out, indent=4))


if __name__ == "__main__":
    main()
