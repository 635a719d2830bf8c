"""What the measurement runs: the blocks, UNets and VAE decoders of each family and the cases of each.

A *spec* is one thing built on the GPU (a stack of identical DiT blocks, a whole UNet, a VAE decoder) with
its dimensions read from the compiled rules; a *case* is one measured run of a spec (training step with
or without checkpointing, sampling forward, decode) at one size. Standard library only, so `--dry-run`
prints exactly what a GPU run would do on a machine without PyTorch.

Only structure lives here (which block type a family uses, whether it has RoPE, how its FFN gates). The
widths, heads, ratios, patch, text tokens and block counts come from architectures.json. UNets and VAE
decoders have no width fields in the rules (the estimator models them per pixel), so their published
channel layouts are written here, with sources, and the built parameter count is checked against the
rules' `params` on the GPU.
"""

import math

from rules_data import stream_split

# ---- DiT blocks -------------------------------------------------------------------------------------
# kind:   mmdit  = dual-stream block, joint attention over [text, image] (FLUX double, SD3, Qwen-Image)
#         single = FLUX single-stream block: parallel attention and MLP over the joint sequence
#         joint  = single-stream pre-norm block with separate attention and FFN (Z-Image S3-DiT)
#         cross  = image self-attention, cross-attention to the text, FFN (Wan, LTX)
# stream: 'double' / 'single' picks this spec's share of the arch's blocks from its dims_source split.
# modulation: per_block (AdaLN Linear in every block, LoRA-adapted as AI Toolkit does), shared (computed
#         once outside the blocks: FLUX.2), table (Wan: a per-block table plus one time projection).
# fp32_residual: the block keeps its norms, modulation and residual adds in fp32 (Wan's FP32LayerNorm and
#         `.float()` adds in diffusers' WanTransformerBlock).
DIT_SPECS = (
    dict(id="flux.double", arch="flux", kind="mmdit", stream="double", rope=True, mlp="gelu", modulation="per_block"),
    dict(id="flux.single", arch="flux", kind="single", stream="single", rope=True, mlp="gelu", modulation="per_block"),
    dict(id="wan21.dit", arch="wan21", kind="cross", rope=True, mlp="gelu", modulation="table", fp32_residual=True),
    dict(id="qwen_image.mmdit", arch="qwen_image", kind="mmdit", rope=True, mlp="gelu", modulation="per_block"),
    dict(id="sd3.mmdit", arch="sd3", kind="mmdit", rope=False, mlp="gelu", modulation="per_block"),
    dict(id="wan21_1.3b.dit", arch="wan21", variant="Wan 2.1 T2V 1.3B", kind="cross", rope=True, mlp="gelu",
         modulation="table", fp32_residual=True),
    dict(id="sd3_medium.mmdit", arch="sd3", variant="SD3.5 Medium", kind="mmdit", rope=False, mlp="gelu",
         modulation="per_block"),
)

# Families measured only when the budget allows: their block structure is approximated more loosely.
EXTRA_DIT_SPECS = (
    dict(id="flux2.double", arch="flux2", kind="mmdit", stream="double", rope=True, mlp="swiglu", modulation="shared"),
    dict(id="flux2.single", arch="flux2", kind="single", stream="single", rope=True, mlp="swiglu", modulation="shared"),
    dict(id="zimage.joint", arch="zimage", kind="joint", rope=True, mlp="swiglu", modulation="per_block"),
    dict(id="wan22_5b.dit", arch="wan22_5b", kind="cross", rope=True, mlp="gelu", modulation="table", fp32_residual=True),
    dict(id="ltx2.dit", arch="ltx2", kind="cross", rope=True, mlp="gelu", modulation="per_block"),
)

# ---- UNets --------------------------------------------------------------------------------------------
# diffusers UNet2DConditionModel configs of the released checkpoints (stabilityai/stable-diffusion-xl-base-1.0
# and stable-diffusion-v1-5 unet/config.json): block_out_channels, cross-attention levels, transformer
# depth per level, attention heads per level (diffusers' `attention_head_dim` is a head count there),
# context width, linear or 1x1-conv projections, SDXL's added text/time embedding width.
UNET_LAYOUTS = {
    "sdxl": dict(channels=(320, 640, 1280), attention=(False, True, True), depth=(0, 2, 10), heads=(5, 10, 20),
                 mid_depth=10, context_dim=2048, layers_per_block=2, add_embedding_dim=2816,
                 source="diffusers stabilityai/stable-diffusion-xl-base-1.0 unet/config.json"),
    "sd1": dict(channels=(320, 640, 1280, 1280), attention=(True, True, True, False), depth=(1, 1, 1, 0),
                heads=(8, 8, 8, 8), mid_depth=1, context_dim=768, layers_per_block=2, add_embedding_dim=0,
                source="diffusers stable-diffusion-v1-5 unet/config.json"),
}

UNET_SPECS = (
    dict(id="sdxl.unet", arch="sdxl", layout="sdxl", latent_sides=(64, 96, 128)),  # 512, 768, 1024 px
    dict(id="sd1.unet", arch="sd1", layout="sd1", latent_sides=(32, 48, 64)),      # 256, 384, 512 px
)

# ---- VAE decoders -------------------------------------------------------------------------------------
# kl_f8: the SD/SDXL/FLUX/SD3 AutoencoderKL decoder (diffusers block_out_channels 128/256/512/512, 2 layers
#        per block so 3 resnets per up block, one single-head attention in the mid block).
# wan:   the Wan 2.1 causal 3D VAE decoder (Wan2.1 wan/modules/vae.py: dim 96, dim_mult 1/2/4/4,
#        2 residual blocks (+1 in the decoder), temporal upsampling in the first two up stages); the
#        Qwen-Image VAE has the same layout. `temporal` False decodes a single image (the first causal
#        chunk: 1 frame); True decodes one later latent frame into 4 output frames, with the two-frame
#        causal context zero-padded, as the chunked decode holds it in its feature cache.
VAE_LAYOUTS = {
    "kl_f8": dict(block_out_channels=(128, 256, 512, 512), layers_per_block=2,
                  source="diffusers AutoencoderKL config (SD/SDXL, FLUX.1 and SD3 VAEs)"),
    "wan": dict(base_dim=96, dim_mult=(1, 2, 4, 4), res_blocks=2, temporal_upsample=(True, True, False),
                source="Wan2.1 wan/modules/vae.py WanVAE_ (also Qwen-Image's AutoencoderKLQwenImage)"),
    "hunyuan": dict(block_out_channels=(128, 256, 512, 512), layers_per_block=2, temporal_upsample=(False, True, True),
                    source="diffusers autoencoder_kl_hunyuan_video.py HunyuanVideoDecoder3D (HunyuanVideo's VAE config: "
                           "block_out_channels 128/256/512/512, layers_per_block 2, ×8 space, ×4 time)"),
}

VAE_SPECS = (
    # `keys` are the memory.yaml entries the measurement speaks to.
    dict(id="vae.kl_f8", arch="flux", layout="kl_f8", temporal=False, sizes=(512, 768, 1024),
         keys=("vae.sd.decode_k",)),
    dict(id="vae.wan.image", arch="qwen_image", layout="wan", temporal=False, sizes=(512, 768, 1024),
         keys=("vae.qwen.decode_k", "vae.wan21.image_decode_k")),
    dict(id="vae.wan.video", arch="wan21", layout="wan", temporal=True, sizes=(512, 768, 1024),
         keys=("vae.wan21.decode_k",)),
    # HunyuanVideo's decoder takes every latent frame of its call at once: 5 latent frames, 17 output frames
    dict(id="vae.hunyuan.video", arch="hunyuan_video", layout="hunyuan", temporal=True, latent_frames=5, sizes=(256, 384, 512),
         keys=("vae.hunyuan.decode_k",)),
)

# Precision sensitivity: the same training cases under another precision mode (see runner.Precision).
SENSITIVITY = (("flux.double", "bf16"), ("flux.double", "autocast-cast"), ("sdxl.unet", "bf16"))

SMOKE_TOKENS = (16, 32, 48)


def round_width(x, multiple=128):
    """MLP widths from a rounded ratio (2.667, 2.7) back to the multiple of 128 the released models use."""
    return max(multiple, int(round(x / multiple)) * multiple)


def dit_spec(rules, raw, smoke=False):
    d = rules.denoiser(raw["arch"], raw.get("variant"))
    entry = rules.arch(raw["arch"])
    vae = rules.vae(raw["arch"])
    total = int(d["blocks"])
    weight = total
    split = None
    if raw.get("stream"):
        split = stream_split(entry.get("dims_source"))
        if split is None:
            raise ValueError("%s: no 'N double + M single' split in the dims_source of %s" % (raw["id"], raw["arch"]))
        weight = split[0] if raw["stream"] == "double" else split[1]
    spec = dict(raw)
    spec.update(
        group="dit",
        family=raw["id"].rsplit(".", 1)[0],
        hidden=int(d["hidden"]),
        heads=int(d["heads"]),
        mlp_ratio=float(d["mlp_ratio"]),
        mlp_inner=round_width(float(d["mlp_ratio"]) * int(d["hidden"])),
        patch=int(d["patch"]),
        latent_channels=int(vae["latent_channels"]),
        text_tokens=int(d["text_tokens"]),
        joint_attention=bool(d["joint_attention"]),
        cfg_in_sampling=bool(d["cfg_in_sampling"]),
        arch_blocks=total,
        weight=weight,
        split=list(split) if split else None,
        largest_block_params=d.get("largest_block_params"),
        lora_params_per_rank=d.get("lora_params_per_rank"),
        notes=[],
    )
    if raw.get("variant") and "mlp_ratio" not in (_variant(entry, raw["variant"]).get("denoiser") or {}):
        spec["notes"].append("variant '%s' inherits mlp_ratio %s from %s (its own FFN width is not in the rules)"
                             % (raw["variant"], d["mlp_ratio"], raw["arch"]))
    if smoke:
        _shrink_dit(spec)
    return spec


def _variant(entry, label):
    for v in entry.get("variants") or []:
        if v.get("label") == label:
            return v
    return {}


def _shrink_dit(spec):
    # The CPU smoke run keeps every code path but makes the block tiny: 2-4 heads of 16 channels.
    heads = max(2, min(4, spec["heads"] // 8))
    spec["heads"] = heads
    spec["hidden"] = heads * 16
    spec["mlp_inner"] = round_width(spec["mlp_ratio"] * spec["hidden"], 16)
    spec["text_tokens"] = min(spec["text_tokens"], 8)


def unet_spec(rules, raw, smoke=False):
    d = rules.denoiser(raw["arch"])
    vae = rules.vae(raw["arch"])
    layout = dict(UNET_LAYOUTS[raw["layout"]])
    spec = dict(raw)
    spec.update(
        group="unet",
        family=raw["id"].rsplit(".", 1)[0],
        unet=layout,
        latent_channels=int(vae["latent_channels"]),
        vae_spatial=int(vae["spatial"]),
        text_tokens=int(d["text_tokens"]),
        cfg_in_sampling=bool(d["cfg_in_sampling"]),
        rules_params=d.get("params"),
        lora_params_per_rank=d.get("lora_params_per_rank"),
        rules_unet_bytes_per_latent_pixel=d.get("unet_bytes_per_latent_pixel"),
        notes=[],
    )
    if smoke:
        layout["channels"] = tuple(32 * (i + 1) for i in range(len(layout["channels"])))
        layout["heads"] = tuple(2 for _ in layout["heads"])
        layout["depth"] = tuple(min(1, x) for x in layout["depth"])
        layout["mid_depth"] = 1
        layout["context_dim"] = 32
        layout["add_embedding_dim"] = 32 if layout["add_embedding_dim"] else 0
        spec["latent_sides"] = (8, 16)
        spec["text_tokens"] = 8
    return spec


def vae_spec(rules, raw, smoke=False):
    vae = rules.vae(raw["arch"])
    layout = dict(VAE_LAYOUTS[raw["layout"]])
    spec = dict(raw)
    spec.update(
        group="vae",
        family=raw["id"],
        vae_family=vae["family"],
        vae=layout,
        latent_channels=int(vae["latent_channels"]),
        spatial=int(vae["spatial"]),
        temporal_factor=int(vae["temporal"]),
        notes=[],
    )
    if smoke:
        if raw["layout"] in ("kl_f8", "hunyuan"):
            layout["block_out_channels"] = (32, 32, 64, 64)
        else:
            layout["base_dim"] = 8
        spec["sizes"] = (32, 64)
    return spec


def build_specs(rules, include_extras=True, smoke=False, only=None):
    """Every spec in measuring order: core DiT blocks, UNets, VAEs, sensitivity runs, then the extras."""
    specs = []
    core = list(DIT_SPECS)
    for raw in core[:5]:
        specs.append(dit_spec(rules, raw, smoke))
    specs.append(unet_spec(rules, UNET_SPECS[0], smoke))
    for raw in VAE_SPECS:
        specs.append(vae_spec(rules, raw, smoke))
    for raw in core[5:]:
        specs.append(dit_spec(rules, raw, smoke))
    specs.append(unet_spec(rules, UNET_SPECS[1], smoke))
    by_id = {s["id"]: s for s in specs}
    for base_id, mode in SENSITIVITY:
        if base_id in by_id:
            s = dict(by_id[base_id])
            s.update(id="%s@%s" % (base_id, mode), mode=mode, sensitivity=True, base=base_id, notes=[])
            specs.append(s)
    if include_extras:
        for raw in EXTRA_DIT_SPECS:
            s = dit_spec(rules, raw, smoke)
            s["extra"] = True
            specs.append(s)
    if only:
        specs = [s for s in specs if any(s["id"].startswith(p) for p in only)]
    return specs


def cases_for(spec, tokens, stacks, mode):
    """The measured runs of one spec, in order. Each is a dict the runner and the derivation read."""
    mode = spec.get("mode", mode)
    out = []
    if spec["group"] == "dit":
        for ckpt in (True, False):
            for depth in stacks:
                for t in tokens:
                    out.append(_dit_case(spec, "train", ckpt, depth, t, 1, mode))
        if not spec.get("sensitivity"):
            batch = 2 if spec["cfg_in_sampling"] else 1
            for t in tokens:
                out.append(_dit_case(spec, "sample", False, max(stacks), t, batch, mode))
    elif spec["group"] == "unet":
        for ckpt in (True, False):
            for side in spec["latent_sides"]:
                out.append(_unet_case(spec, "train", ckpt, side, 1, mode))
        if not spec.get("sensitivity"):
            batch = 2 if spec["cfg_in_sampling"] else 1
            for side in spec["latent_sides"]:
                out.append(_unet_case(spec, "sample", False, side, batch, mode))
    else:
        for size in spec["sizes"]:
            # output frames: a Wan chunk decodes one later latent frame into 4; HunyuanVideo all of its latent frames
            frames = (4 * (spec["latent_frames"] - 1) + 1 if "latent_frames" in spec else 4) if spec["temporal"] else 1
            out.append(dict(spec=spec["id"], phase="decode", pixels=size * size, width=size, height=size,
                            frames=frames, batch=1, mode="bf16"))
    for c in out:
        c["id"] = case_id(c)
    return out


def _dit_case(spec, phase, ckpt, depth, image_tokens, batch, mode):
    text = spec["text_tokens"]
    # The sequence the estimator counts: image tokens, plus the text when it joins the attention.
    seq = image_tokens + (text if spec["joint_attention"] else 0)
    return dict(spec=spec["id"], phase=phase, checkpointing=ckpt, depth=depth, image_tokens=image_tokens,
                text_tokens=text, seq=seq, batch=batch, hidden=spec["hidden"], mode=mode)


def _unet_case(spec, phase, ckpt, side, batch, mode):
    return dict(spec=spec["id"], phase=phase, checkpointing=ckpt, latent_side=side, latent_pixels=side * side,
                batch=batch, mode=mode)


def case_id(c):
    parts = [c["spec"], c["phase"]]
    if c["phase"] == "train":
        parts.append("ckpt" if c["checkpointing"] else "full")
    if "depth" in c:
        parts.append("d%d" % c["depth"])
    if "image_tokens" in c:
        parts.append("t%d" % c["image_tokens"])
    if "latent_side" in c:
        parts.append("lat%d" % c["latent_side"])
    if "width" in c:
        parts.append("%dx%dx%d" % (c["width"], c["height"], c["frames"]))
    if c["batch"] > 1:
        parts.append("b%d" % c["batch"])
    return "/".join(parts)


def describe_spec(spec):
    """One `key=value` line per spec: what the dry run prints and the Node test parses."""
    if spec["group"] == "dit":
        fields = [("id", spec["id"]), ("arch", spec["arch"]), ("variant", spec.get("variant") or "-"),
                  ("kind", spec["kind"]), ("hidden", spec["hidden"]), ("heads", spec["heads"]),
                  ("mlp_ratio", _num(spec["mlp_ratio"])), ("mlp_inner", spec["mlp_inner"]), ("patch", spec["patch"]),
                  ("latent_channels", spec["latent_channels"]), ("text_tokens", spec["text_tokens"]),
                  ("joint", str(spec["joint_attention"]).lower()), ("cfg", str(spec["cfg_in_sampling"]).lower()),
                  ("blocks", spec["arch_blocks"]), ("weight", spec["weight"]), ("rope", str(spec["rope"]).lower()),
                  ("mlp", spec["mlp"]), ("modulation", spec["modulation"])]
    elif spec["group"] == "unet":
        u = spec["unet"]
        fields = [("id", spec["id"]), ("arch", spec["arch"]), ("kind", "unet"),
                  ("channels", ",".join(map(str, u["channels"]))), ("depth", ",".join(map(str, u["depth"]))),
                  ("heads", ",".join(map(str, u["heads"]))), ("context_dim", u["context_dim"]),
                  ("latent_channels", spec["latent_channels"]), ("text_tokens", spec["text_tokens"]),
                  ("cfg", str(spec["cfg_in_sampling"]).lower())]
    else:
        v = spec["vae"]
        widths = v.get("block_out_channels") or tuple(v["base_dim"] * m for m in v["dim_mult"])
        fields = [("id", spec["id"]), ("arch", spec["arch"]), ("kind", "vae-" + spec["layout"]),
                  ("vae_family", spec["vae_family"]), ("latent_channels", spec["latent_channels"]),
                  ("spatial", spec["spatial"]), ("widths", ",".join(map(str, widths))),
                  ("temporal", str(spec["temporal"]).lower())]
    if spec.get("mode"):
        fields.append(("mode", spec["mode"]))
    return "spec " + " ".join("%s=%s" % (k, _quoted(v)) for k, v in fields)


def describe_case(c):
    keys = ("phase", "checkpointing", "depth", "image_tokens", "text_tokens", "seq", "latent_side", "width",
            "frames", "batch", "mode")
    return "case id=%s " % c["id"] + " ".join("%s=%s" % (k, _num(c[k])) for k in keys if k in c)


def _quoted(v):
    # Values with spaces (variant labels) are quoted so every line stays `key=value` pairs.
    text = str(v)
    return '"%s"' % text if " " in text else text


def _num(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return ("%.4f" % v).rstrip("0").rstrip(".") if not math.isinf(v) else str(v)
    return str(v)
