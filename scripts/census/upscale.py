"""An ESRGAN upscale model's working memory on the CPU, for the ComfyUI estimate (rules/comfyui.yaml
upscale_models): the profiler's peak of live bytes over one forward of a tile at a few sizes, its slope per
input pixel, for the RRDB network of RealESRGAN_x4plus (basicsr's RRDBNet: 64 features, 23 RRDB blocks,
growth 32, two nearest ×2 upsamplings; the LeakyReLUs in place, as basicsr writes them), in fp32 as ComfyUI
runs it (spandrel loads the weights in fp32 and ImageUpscaleWithModel feeds it the fp32 image).

  /usr/bin/python3 scripts/census/upscale.py [--tiles 32,48,64]   # tests/census/upscale.json holds its output
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import derive  # noqa: E402
import layers  # noqa: E402

census.use_layers()


class ResidualDenseBlock(nn.Module):
    def __init__(self, feat=64, grow=32):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv2d(feat + i * grow, grow if i < 4 else feat, 3, 1, 1) for i in range(5))
        self.lrelu = nn.LeakyReLU(0.2, inplace=True)

    def forward(self, x):
        feats = [x]
        for conv in self.convs[:4]:
            feats.append(self.lrelu(conv(torch.cat(feats, 1))))
        return self.convs[4](torch.cat(feats, 1)) * 0.2 + x


class RRDB(nn.Module):
    def __init__(self, feat=64, grow=32):
        super().__init__()
        self.rdbs = nn.Sequential(*(ResidualDenseBlock(feat, grow) for _ in range(3)))

    def forward(self, x):
        return self.rdbs(x) * 0.2 + x


class RRDBNet(nn.Module):
    def __init__(self, feat=64, blocks=23, grow=32):
        super().__init__()
        self.conv_first = nn.Conv2d(3, feat, 3, 1, 1)
        self.body = nn.Sequential(*(RRDB(feat, grow) for _ in range(blocks)))
        self.conv_body = nn.Conv2d(feat, feat, 3, 1, 1)
        self.conv_up1 = nn.Conv2d(feat, feat, 3, 1, 1)
        self.conv_up2 = nn.Conv2d(feat, feat, 3, 1, 1)
        self.conv_hr = nn.Conv2d(feat, feat, 3, 1, 1)
        self.conv_last = nn.Conv2d(feat, 3, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(0.2, inplace=True)

    def forward(self, x):
        feat = self.conv_first(x)
        feat = feat + self.conv_body(self.body(feat))
        feat = self.lrelu(self.conv_up1(F.interpolate(feat, scale_factor=2, mode="nearest")))
        feat = self.lrelu(self.conv_up2(F.interpolate(feat, scale_factor=2, mode="nearest")))
        return self.conv_last(self.lrelu(self.conv_hr(feat)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", default="32,48,64")
    args = ap.parse_args()
    tiles = [int(t) for t in args.tiles.split(",")]
    torch.set_num_threads(2)
    torch.manual_seed(0)
    model = RRDBNet().eval()
    params = sum(p.numel() for p in model.parameters())
    peaks = []
    for t in tiles:
        x = torch.rand(1, 3, t, t)
        with torch.no_grad():
            tl, out = census.profiled(lambda: model(x))
        assert out.shape[-1] == 4 * t
        del out
        peaks.append(tl.peak)
        print("tile %4d px: peak %d B, %.1f B per input px" % (t, tl.peak, tl.peak / (t * t)), flush=True)
    per_px = derive.fit_line([(t * t, peak) for t, peak in zip(tiles, peaks)])[0]
    result = dict(model="RRDBNet x4 (RealESRGAN_x4plus)", params=params, dtype="float32", tiles=tiles, peaks=peaks,
                  bytes_per_input_pixel=round(per_px, 1), torch=torch.__version__)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
