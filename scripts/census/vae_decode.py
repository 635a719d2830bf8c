"""The KL-f8 VAE decoder's working memory on the CPU, at its released widths, for the WebUI estimate
(rules/webui.yaml vae_decoder): the profiler's peak of live bytes over one decode at a few sizes, its slope
over output pixels per element byte (K), for each way the tools write the decoder's ResnetBlock:

  ldm_swish      A1111 (ldm / sgm `nonlinearity(x) = x*torch.sigmoid(x)`): input, norm output, sigmoid and
                 product live together
  silu           diffusers' nn.SiLU() (and scripts/gpu/vae.py, the census): input, norm output, SiLU output
  silu_inplace   ComfyUI and Forge (`torch.nn.SiLU(inplace=True)`): input, norm output, then conv1's output

and the mid-block attention with a materialised score matrix (A1111's vanilla AttnBlock: V1, InvokeAI,
no optimisation) beside the memory-efficient one. The decoder is scripts/gpu/vae.py's KLDecoder (diffusers'
AutoencoderKL decoder: 4 latent channels for SD/SDXL; 16 for the FLUX/SD3 AE changes only conv_in).
The CPU sees allocated tensors only: no cuDNN workspace, no caching-allocator slack. With --device cuda the
same decodes run on a GPU and the peak is the caching allocator's (max_memory_allocated above the level
before the decode, cuDNN workspaces included; max_memory_reserved beside it), so the two can be compared.

  /usr/bin/python3 scripts/census/vae_decode.py [--sizes 128,192,256] [--latent 4]
  python3 scripts/census/vae_decode.py --device cuda --sizes 512,768,1024 --dtypes float16,float32
  python3 scripts/census/vae_decode.py --refit-capped tests/gpu/2026-12-04/vae-decode-capped-4ch.txt
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402


import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import derive  # noqa: E402
import layers  # noqa: E402
import vae  # noqa: E402

census.use_layers()


def ldm_swish(x):
    return x * torch.sigmoid(x)


def forward_ldm(self, x):
    # ldm/modules/diffusionmodules/model.py ResnetBlock.forward, line for line (temb None, dropout 0)
    h = x
    h = self.norm1(h)
    h = ldm_swish(h)
    h = self.conv1(h)
    h = self.norm2(h)
    h = ldm_swish(h)
    h = self.conv2(h)
    if self.shortcut is not None:
        x = self.shortcut(x)
    return x + h


def forward_silu(self, x):
    # diffusers ResnetBlock2D: nn.SiLU() is not in place
    h = x
    h = self.norm1(h)
    h = F.silu(h)
    h = self.conv1(h)
    h = self.norm2(h)
    h = F.silu(h)
    h = self.conv2(h)
    if self.shortcut is not None:
        x = self.shortcut(x)
    return x + h


def forward_inplace(self, x):
    # comfy/ldm/modules/diffusionmodules/model.py and Forge backend/nn/vae.py: SiLU(inplace=True)
    h = x
    h = self.norm1(h)
    h = F.silu(h, inplace=True)
    h = self.conv1(h)
    h = self.norm2(h)
    h = F.silu(h, inplace=True)
    h = self.conv2(h)
    if self.shortcut is not None:
        x = self.shortcut(x)
    return x + h


VARIANTS = {"ldm_swish": forward_ldm, "silu": forward_silu, "silu_inplace": forward_inplace}


def slope(xs, ys):
    return derive.fit_line(list(zip(xs, ys)))[0]


class CudaPeak:
    """What census.profiled's Timeline gives on the CPU, from the CUDA caching allocator: `peak` is the most
    bytes allocated above the level before fn (workspaces included), `reserved` the most the allocator held."""

    def __init__(self, before, peak, reserved):
        self.peak, self.reserved = peak - before, reserved


def cuda_profiled(fn):
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    result = fn()
    torch.cuda.synchronize()
    return CudaPeak(before, torch.cuda.max_memory_allocated(), torch.cuda.max_memory_reserved()), result


def decodes(model, spec, prec, side):
    z = model.make_latents(spec, side, side, 1, prec)
    try:
        with torch.no_grad():
            model(z)
        return True
    except torch.cuda.OutOfMemoryError:
        return False
    finally:
        del z
        torch.cuda.empty_cache()


def largest_side(model, spec, prec, cap_bytes, step=64, most=8192):
    """The largest square side (a multiple of step px) that decodes when the caching allocator may hold
    cap_bytes in all, the decoder's weights included: a card of that size less its CUDA context. An
    allocation that would pass the cap fails as it would on such a card, so cuDNN falls back to algorithms
    with smaller workspaces as it does there."""
    total = torch.cuda.get_device_properties(0).total_memory
    torch.cuda.empty_cache()
    torch.cuda.set_per_process_memory_fraction(cap_bytes / total)
    try:
        lo, hi = 0, most // step + 1  # decodes at lo * step (0: nothing tried), fails at hi * step
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if decodes(model, spec, prec, mid * step):
                lo = mid
            else:
                hi = mid
        return lo * step
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0)


def capped(model, spec, prec, elem, caps_gib, key, out):
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    rows = out["capped"].setdefault(key, [])
    for cap in caps_gib:
        cap_bytes = int(cap * 2**30)
        side = largest_side(model, spec, prec, cap_bytes)
        k = (cap_bytes - weights) / (side * side * elem) if side else None
        rows.append(dict(cap_gib=cap, largest_side=side, k=round(k, 1) if k else None, weights=weights))
        print("%-24s cap %.1f GiB: largest square %d px, K %s" % (key, cap, side, "%.1f" % k if k else "-"), flush=True)
    print_capped_fit(key, rows, elem)


def capped_fit(rows, elem, step=64):
    """K and the fixed bytes over the caps, least squares: a cap holds the weights, a fixed part and K per
    output px per element byte; the square's edge is taken midway between the largest side that decoded
    and the next step, which failed. None with fewer than two caps that decoded anything."""
    points = [(elem * (r["largest_side"] + step / 2) ** 2, r["cap_gib"] * 2**30 - r["weights"]) for r in rows if r["largest_side"]]
    return derive.fit_line(points)


def print_capped_fit(key, rows, elem):
    fit = capped_fit(rows, elem)
    if fit:
        print("%-24s over the caps: K %.1f + %.1f MiB fixed" % (key, fit[0], fit[1] / 2**20), flush=True)


def refit_capped(path):
    """Fits the printed capped lines of a run (their K gives back the weights each line subtracted)."""
    runs = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(\S+)\s+cap ([\d.]+) GiB: largest square (\d+) px, K ([\d.]+)", line)
        if m:
            key, cap, side, k = m[1], float(m[2]), int(m[3]), float(m[4])
            elem = 4 if key.endswith("float32") else 2
            runs.setdefault(key, []).append(dict(cap_gib=cap, largest_side=side, weights=cap * 2**30 - k * side * side * elem))
    for key, rows in runs.items():
        print_capped_fit(key, rows, 4 if key.endswith("float32") else 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="128,192,256")
    ap.add_argument("--latent", type=int, default=4)
    ap.add_argument("--dtypes", default="bfloat16,float32")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--attention", default="chunked", choices=("chunked", "sdpa"),
                    help="the mid-block attention of the K runs (sdpa: the fused kernel, GPU only)")
    ap.add_argument("--refit-capped", metavar="TXT", help="fit K and the fixed bytes over the capped lines a run printed, then exit")
    ap.add_argument("--caps", default="",
                    help="GPU only: GiB the process may hold (e.g. 2,3.5): the largest square that decodes under each, "
                         "and the K it implies, (cap - weights) / (side^2 * elem bytes)")
    args = ap.parse_args()
    if args.refit_capped:
        refit_capped(args.refit_capped)
        return
    caps = [float(c) for c in args.caps.split(",") if c.strip()]
    if caps and args.device != "cuda":
        ap.error("--caps needs --device cuda")
    sizes = [int(s) for s in args.sizes.split(",")]
    on_gpu = args.device == "cuda"
    profiled = cuda_profiled if on_gpu else census.profiled
    torch.set_num_threads(2)
    spec = dict(layout="kl_f8", latent_channels=args.latent, spatial=8, vae=dict(block_out_channels=(128, 256, 512, 512), layers_per_block=2))
    out = dict(latent_channels=args.latent, sizes=sizes, torch=torch.__version__, device=args.device, k={},
               naive_bytes_per_token2={}, capped={})
    if on_gpu:
        out["gpu"] = torch.cuda.get_device_name(0)
        out["cudnn"] = torch.backends.cudnn.version()
    for dtype_name in args.dtypes.split(","):
        dtype = getattr(torch, dtype_name)
        elem = torch.finfo(dtype).bits // 8
        prec = layers.Precision("bf16", args.device)
        prec.dtype = dtype
        torch.manual_seed(0)
        model = vae.build_decoder(spec, prec)
        layers.set_attention(args.attention)
        for name, forward in VARIANTS.items():
            vae.KLResnet.forward = forward
            peaks, reserved = [], []
            for size in sizes:
                z = model.make_latents(spec, size, size, 1, prec)
                with torch.no_grad():
                    tl, img = profiled(lambda: model(z))
                del img
                peaks.append(tl.peak)
                reserved.append(getattr(tl, "reserved", None))
            k = slope([s * s for s in sizes], peaks) / elem
            key = "%s/%s" % (name, dtype_name)
            out["k"][key] = dict(k=round(k, 1), peaks=peaks)
            if on_gpu:
                out["k"][key]["reserved"] = reserved
            print("%-24s K %7.1f  peaks %s" % (key, k, peaks), flush=True)
            if caps:
                capped(model, spec, prec, elem, caps, key, out)
        # the mid-block attention alone at a latent side of 48: a materialised score matrix against the
        # memory-efficient kernel, bytes per latent token squared
        fmap = torch.randn(1, 512, 48, 48, dtype=dtype, device=args.device)
        live = {}
        for attn in ("chunked", "naive"):
            layers.set_attention(attn)
            with torch.no_grad():
                tl, _ = profiled(lambda: model.mid[1](fmap))
            live[attn] = tl.peak
        out["naive_bytes_per_token2"][dtype_name] = round((live["naive"] - live["chunked"]) / (48 * 48) ** 2, 2)
        print("naive attention %s: %.2f B per latent token^2" % (dtype_name, out["naive_bytes_per_token2"][dtype_name]), flush=True)
        layers.set_attention("chunked")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
