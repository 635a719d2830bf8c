"""The KL-f8 VAE encoder's working memory on the CPU, at its released widths: what a trainer's in-step
encode holds when latents are not cached (AI Toolkit's BaseSDTrainProcess encodes the whole batch at
once, stable_diffusion_model.py encode_images). The profiler's peak of live bytes over one encode at a few
sizes, the input images included, and its slope over input pixels per element byte (K), for each way the tools
write the ResnetBlock (vae_decode.py's VARIANTS: the ldm swish of sd-scripts' FLUX autoencoder, diffusers'
nn.SiLU as AI Toolkit runs it, the in-place SiLU of ComfyUI and Forge).
The encoder is scripts/gpu/vae.py's KLEncoder; 16 latent channels (FLUX/SD3, no quant_conv) change only
its last convolutions. The CPU sees allocated tensors only, as tests/census/vae-decode.json does for the
decoder: no cuDNN workspace, no caching-allocator slack.

  /usr/bin/python3 scripts/census/vae_encode.py [--sizes 128,192,256] > tests/census/vae-encode.json
  /usr/bin/python3 scripts/census/vae_encode.py --latent 16 --dtypes bfloat16 > tests/census/vae-encode-16ch.json
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402


import torch  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
import vae  # noqa: E402
import vae_decode  # noqa: E402

census.use_layers()

VARIANTS = vae_decode.VARIANTS  # ldm_swish (sd-scripts' and musubi-tuner's FLUX autoencoder), silu, silu_inplace


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="128,192,256")
    ap.add_argument("--latent", type=int, default=4)
    ap.add_argument("--dtypes", default="bfloat16,float32")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    torch.set_num_threads(2)
    layers.set_attention("chunked")  # the mid-block attention as a memory-efficient kernel
    spec = dict(layout="kl_f8", latent_channels=args.latent, spatial=8,
                vae=dict(block_out_channels=(128, 256, 512, 512), layers_per_block=2, quant_conv=args.latent == 4))
    out = dict(latent_channels=args.latent, sizes=sizes, torch=torch.__version__, device="cpu", k={})
    for dtype_name in args.dtypes.split(","):
        dtype = getattr(torch, dtype_name)
        elem = torch.finfo(dtype).bits // 8
        prec = layers.Precision("bf16", "cpu")
        prec.dtype = dtype
        torch.manual_seed(0)
        model = vae.KLEncoder(spec, prec)
        for name, forward in VARIANTS.items():
            vae.KLResnet.forward = forward
            peaks = []
            for size in sizes:
                # The images are made inside the profiled call: the batch the trainer moves to the GPU is live too.
                with torch.no_grad():
                    tl, z = census.profiled(lambda: model(model.make_images(size, size, prec)))
                del z
                peaks.append(tl.peak)
            k = vae_decode.slope([s * s for s in sizes], peaks) / elem
            key = "%s/%s" % (name, dtype_name)
            out["k"][key] = dict(k=round(k, 1), peaks=peaks)
            print("%-24s K %7.1f  peaks %s" % (key, k, peaks), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=4))


if __name__ == "__main__":
    main()
