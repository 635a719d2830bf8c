"""From raw peaks to the coefficients rules/memory.yaml names, and the tables that compare them.

The estimator's activation model (core/systems/aitk/estimate.cpp), per sample of `seq` tokens and width h:
    checkpointing:     (L · checkpoint + block) · seq · h · multiplier
    no checkpointing:   L · block · seq · h · multiplier
    sampling:           cfg · seq · h · inference
    UNets:              latent pixels · unet_bytes_per_latent_pixel_{checkpointed,full} · multiplier
    VAE decode:         pixels · decode_k · 2 B (bf16)
A stack of N measured blocks gives, for each N, the slope of the peak over the token count (the constant
part — LoRA gradients, text-only tensors, workspaces — falls into the intercept). Two depths separate the
per-block term from the once-per-step term:  slope_N / h = N · per_block + once.
With checkpointing, per_block is what each checkpoint keeps and `once` is the block recomputed in
backward (the estimator's `block` in that formula); without, per_block is a whole block's activations.
Standard library only: `--rederive` re-runs this on a saved measurement without PyTorch.
"""

import statistics

REFERENCE_IMAGE_TOKENS = 4096  # 1024² at f8 × patch 2: the size the full-depth table is read at
UNET_SAMPLING_CHANNELS = 1280  # the estimator's sampling width for models without a `hidden`
GIB = float(2 ** 30)
KEYS = ("peak_allocated", "peak_reserved")


def estimate_side(rules):
    """Today's coefficients, copied into the output so a re-derivation compares with what was measured against."""
    act = rules.activation_constants()
    over = rules.overheads()
    vae = {}
    for family in ("sd", "qwen", "wan21", "wan22"):
        v = rules.vae_constants(family)
        vae[family] = {k: v[k] for k in ("decode_k", "image_decode_k") if k in v}
    unet_own = {}
    for arch in ("sd1", "sd2"):
        if arch in rules.architectures:
            own = rules.denoiser(arch).get("unet_bytes_per_latent_pixel")
            if own:
                unet_own[arch] = own
    return dict(
        checkpoint_bytes_per_token_channel=act.get("checkpoint_bytes_per_token_channel"),
        block_bytes_per_token_channel=act.get("block_bytes_per_token_channel"),
        multiplier=act.get("multiplier", 1.0),
        inference_bytes_per_token_channel=act.get("inference_bytes_per_token_channel"),
        unet_bytes_per_latent_pixel_checkpointed=act.get("unet_bytes_per_latent_pixel_checkpointed"),
        unet_bytes_per_latent_pixel_full=act.get("unet_bytes_per_latent_pixel_full"),
        arch_unet_bytes_per_latent_pixel=unet_own,
        vae=vae,
        allocator_fraction=over.get("allocator_fraction"),
        cuda_context_bytes=over.get("cuda_context_bytes"),
    )


# ---- fitting -------------------------------------------------------------------------------------------

def fit_line(points):
    """Least-squares (slope, intercept) of [(x, y)]; None with fewer than two distinct x."""
    xs = [float(x) for x, _ in points]
    if len(set(xs)) < 2:
        return None
    ys = [float(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


def _ok(measurements, **match):
    return [m for m in measurements if m.get("status") == "ok" and all(m.get(k) == v for k, v in match.items())]


def _per_depth_slopes(ms, x_key, key):
    """{depth: slope of `key` over `x_key` per sample} for the measurements of one phase/checkpointing."""
    by_depth = {}
    for m in ms:
        by_depth.setdefault(m.get("depth", 0), []).append((m[x_key], m[key] / m["batch"]))
    slopes = {}
    for depth, pts in by_depth.items():
        line = fit_line(pts)
        if line is not None:
            slopes[depth] = line[0]
    return slopes


def _split_depths(slopes, hidden):
    """(per_block, once) bytes per token per channel from slopes at two or more depths."""
    if len(slopes) < 2:
        return None, None
    lo, hi = min(slopes), max(slopes)
    per_block = (slopes[hi] - slopes[lo]) / (hi - lo) / hidden
    return per_block, slopes[lo] / hidden - lo * per_block


# ---- per spec ------------------------------------------------------------------------------------------

def dit_coefficients(spec, measurements):
    """Per-token-per-channel terms of one DiT block kind, for allocated and reserved peaks."""
    out = {}
    h = spec["hidden"]
    for key in KEYS:
        ckpt = _ok(measurements, spec=spec["id"], phase="train", checkpointing=True)
        full = _ok(measurements, spec=spec["id"], phase="train", checkpointing=False)
        sample = _ok(measurements, spec=spec["id"], phase="sample")
        checkpoint, recompute = _split_depths(_per_depth_slopes(ckpt, "seq", key), h)
        block, full_once = _split_depths(_per_depth_slopes(full, "seq", key), h)
        sample_slopes = _per_depth_slopes(sample, "seq", key)
        inference = sample_slopes[max(sample_slopes)] / h if sample_slopes else None
        out[key] = dict(checkpoint=checkpoint, recompute=recompute, block=block, full_once=full_once,
                        inference=inference)
    return out


def unet_coefficients(spec, measurements):
    out = {}
    for key in KEYS:
        row = {}
        for name, match in (("checkpointed", dict(phase="train", checkpointing=True)),
                            ("full", dict(phase="train", checkpointing=False)), ("sample", dict(phase="sample"))):
            slopes = _per_depth_slopes(_ok(measurements, spec=spec["id"], **match), "latent_pixels", key)
            row[name] = slopes.get(0)
        row["inference"] = row["sample"] / UNET_SAMPLING_CHANNELS if row["sample"] is not None else None
        out[key] = row
    return out


def vae_coefficients(spec, measurements):
    """decode K = peak / (output pixels of one frame × 2 B): the largest over the sizes (the estimator has
    no intercept, and InvokeAI's constants are likewise the worst case of a size grid), and the slope."""
    out = {}
    ms = _ok(measurements, spec=spec["id"], phase="decode")
    for key in KEYS:
        ks = {"%dx%d" % (m["width"], m["height"]): m[key] / (m["pixels"] * 2.0) for m in ms}
        line = fit_line([(m["pixels"], m[key]) for m in ms])
        out[key] = dict(decode_k=max(ks.values()) if ks else None, per_size=ks,
                        slope_k=line[0] / 2.0 if line else None)
    return out


# ---- families ------------------------------------------------------------------------------------------

def family_coefficients(specs, per_spec):
    """Block kinds of one arch combined: per-block terms weighted by how many blocks of each kind the arch
    has (FLUX 19 double + 38 single); once-per-step terms from the largest kind, which sets the peak."""
    fams = {}
    for sid, spec in specs.items():
        if spec["group"] != "dit" or spec.get("sensitivity") or sid not in per_spec:
            continue
        fams.setdefault(spec["family"], []).append(spec)
    out = {}
    for fam, members in fams.items():
        first = members[0]
        row = dict(arch=first["arch"], variant=first.get("variant"), hidden=first["hidden"],
                   blocks=first["arch_blocks"], text_tokens=first["text_tokens"], joint=first["joint_attention"],
                   cfg=first["cfg_in_sampling"], extra=bool(first.get("extra")), kinds=[m["id"] for m in members])
        for key in KEYS:
            vals = [(m["weight"], per_spec[m["id"]][key]) for m in members]
            row[key] = dict(
                checkpoint=_weighted(vals, "checkpoint"), block=_weighted(vals, "block"),
                recompute=_largest(vals, "recompute"), full_once=_largest(vals, "full_once"),
                inference=_largest(vals, "inference"),
                # Σ blocks of each kind × its per-block term: what L × coefficient stands for in the estimator
                checkpoint_sum=_summed(vals, "checkpoint"), block_sum=_summed(vals, "block"))
        out[fam] = row
    return out


def _weighted(vals, name):
    pairs = [(w, v[name]) for w, v in vals if v.get(name) is not None]
    if not pairs or len(pairs) < len(vals):
        return None
    return sum(w * x for w, x in pairs) / sum(w for w, _ in pairs)


def _summed(vals, name):
    pairs = [(w, v[name]) for w, v in vals if v.get(name) is not None]
    return sum(w * x for w, x in pairs) if pairs and len(pairs) == len(vals) else None


def _largest(vals, name):
    xs = [v[name] for _, v in vals if v.get(name) is not None]
    return max(xs) if xs else None


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


# ---- everything ----------------------------------------------------------------------------------------

def derive(data):
    """The `derived` section of the output from its specs, measurements, estimate side and provenance."""
    specs, ms, est = data["specs"], data["measurements"], data["estimate_side"]
    per_spec = {}
    for sid, spec in specs.items():
        if spec["group"] == "dit":
            per_spec[sid] = dit_coefficients(spec, ms)
        elif spec["group"] == "unet":
            per_spec[sid] = unet_coefficients(spec, ms)
        else:
            per_spec[sid] = vae_coefficients(spec, ms)
    families = family_coefficients(specs, per_spec)
    core = [f for f in families.values() if not f["extra"]]
    keyed = {}
    for key in KEYS:
        keyed[key] = _memory_yaml_keys(key, core, specs, per_spec, data)
    return dict(per_spec=per_spec, families=families, memory_yaml=keyed,
                full_depth=_full_depth(families, est), allocator=_allocator(ms),
                sensitivity=_sensitivity(specs, per_spec))


def _memory_yaml_keys(key, core, specs, per_spec, data):
    out = {
        "activations.checkpoint_bytes_per_token_channel": _median(f[key]["checkpoint"] for f in core),
        "activations.block_bytes_per_token_channel": _median(f[key]["block"] for f in core),
        "activations.block_bytes_per_token_channel (recomputed block)": _median(f[key]["recompute"] for f in core),
        "activations.inference_bytes_per_token_channel": _median(f[key]["inference"] for f in core),
    }
    for sid, spec in specs.items():
        if spec.get("sensitivity") or sid not in per_spec:
            continue
        c = per_spec[sid][key]
        if spec["group"] == "unet" and spec["arch"] == "sdxl":
            out["activations.unet_bytes_per_latent_pixel_checkpointed"] = c["checkpointed"]
            out["activations.unet_bytes_per_latent_pixel_full"] = c["full"]
            out["activations.inference_bytes_per_token_channel (SDXL UNet, 1280 ch)"] = c["inference"]
        elif spec["group"] == "unet":
            out["architectures.%s.denoiser.unet_bytes_per_latent_pixel" % spec["arch"]] = c["checkpointed"]
            out["architectures.%s (no checkpointing, per latent pixel)" % spec["arch"]] = c["full"]
        elif spec["group"] == "vae":
            for k in spec["keys"]:
                out[k] = c["decode_k"]
    if key == "peak_allocated":
        probe = (data.get("provenance") or {}).get("context_probe") or {}
        out["overheads.cuda_context_bytes"] = probe.get("outside_torch")
    return out


def _allocator(ms):
    """Reserved over allocated at each spec's largest training case: the caching allocator's slack."""
    largest = {}
    for m in ms:
        if m.get("status") != "ok" or m.get("phase") != "train" or not m.get("peak_allocated"):
            continue
        size = m.get("seq") or m.get("latent_pixels") or 0
        k = (m["spec"], m.get("checkpointing"), m.get("depth"))
        if k not in largest or size > largest[k][0]:
            largest[k] = (size, m["peak_reserved"] / m["peak_allocated"] - 1.0)
    fractions = [v for _, v in largest.values()]
    return dict(median_fraction=_median(fractions), max_fraction=max(fractions) if fractions else None, cases=len(fractions))


def _full_depth(families, est):
    """Activations of the whole model at REFERENCE_IMAGE_TOKENS, batch 1: the estimate today against the
    measured per-block terms extrapolated to the arch's block count."""
    mult = est.get("multiplier") or 1.0
    ck, blk, inf = (est.get("checkpoint_bytes_per_token_channel"), est.get("block_bytes_per_token_channel"),
                    est.get("inference_bytes_per_token_channel"))
    rows = {}
    for fam, f in families.items():
        seq = REFERENCE_IMAGE_TOKENS + (f["text_tokens"] if f["joint"] else 0)
        scale = seq * f["hidden"]
        cfg = 2 if f["cfg"] else 1
        row = dict(seq=seq, blocks=f["blocks"], cfg=cfg,
                   estimate_checkpointed=(f["blocks"] * ck + blk) * scale * mult if ck is not None and blk is not None else None,
                   estimate_full=f["blocks"] * blk * scale * mult if blk is not None else None,
                   estimate_sampling=cfg * scale * inf if inf is not None else None)
        for key in KEYS:
            c = f[key]
            row["measured_checkpointed_" + key] = _sum_or_none(c["checkpoint_sum"], c["recompute"], scale)
            row["measured_full_" + key] = _sum_or_none(c["block_sum"], c["full_once"], scale)
            row["measured_sampling_" + key] = cfg * scale * c["inference"] if c["inference"] is not None else None
        rows[fam] = row
    return rows


def _sum_or_none(per_blocks, once, scale):
    if per_blocks is None or once is None:
        return None
    return (per_blocks + once) * scale


def _sensitivity(specs, per_spec):
    rows = {}
    for sid, spec in specs.items():
        if spec.get("sensitivity") and sid in per_spec and spec.get("base") in per_spec:
            rows[sid] = dict(base=spec["base"], mode=spec["mode"], measured=per_spec[sid]["peak_allocated"],
                             base_measured=per_spec[spec["base"]]["peak_allocated"])
    return rows


# ---- tables --------------------------------------------------------------------------------------------

def _f(x, digits=1):
    return "–" if x is None else ("%.*f" % (digits, x))


def _ratio(a, b):
    return "–" if a is None or not b else "%.2f" % (a / b)


def _today(est, key):
    """(rules value, effective value the estimate uses) for a memory.yaml key."""
    mult = est.get("multiplier") or 1.0
    vae = est.get("vae") or {}
    if key.startswith("activations.checkpoint"):
        v = est.get("checkpoint_bytes_per_token_channel")
        return v, v * mult if v is not None else None
    if key.startswith("activations.block_bytes"):
        v = est.get("block_bytes_per_token_channel")
        return v, v * mult if v is not None else None
    if key.startswith("activations.inference"):
        v = est.get("inference_bytes_per_token_channel")
        return v, v
    if key.startswith("activations.unet_bytes_per_latent_pixel_"):
        v = est.get(key.split(".", 1)[1])
        return v, v * mult if v is not None else None
    if key.startswith("architectures."):
        arch = key.split(".")[1].split(" ")[0]
        own = (est.get("arch_unet_bytes_per_latent_pixel") or {}).get(arch)
        if own is not None and "no checkpointing" in key:
            ck, full = est.get("unet_bytes_per_latent_pixel_checkpointed"), est.get("unet_bytes_per_latent_pixel_full")
            own = own * full / ck if ck and full else None
        return own, own * mult if own is not None else None
    if key.startswith("vae."):
        _, family, field = key.split(".")
        v = (vae.get(family) or {}).get(field)
        return v, v
    if key == "overheads.cuda_context_bytes":
        v = est.get("cuda_context_bytes")
        return v, v
    return None, None


def _built_section(data):
    """What was built against what the rules say: parameter counts and LoRA parameters per rank.
    An exact match shows the random-initialised model has the released shapes and AI Toolkit's targets."""
    rank = (data.get("settings") or {}).get("rank") or 1
    rows = []
    lora_by_family = {}
    for sid, spec in data["specs"].items():
        built = spec.get("built") or {}
        if spec.get("sensitivity") or built.get("status") != "built":
            continue
        if spec["group"] == "dit":
            rows.append("| %s | block %s | largest block %s |" % (
                sid, _m(built.get("block_params")), _m(spec.get("largest_block_params"))))
            fam = lora_by_family.setdefault(spec["family"], [0, spec.get("lora_params_per_rank")])
            fam[0] += spec["weight"] * (built.get("block_lora_params") or 0) / rank
        elif spec["group"] == "unet":
            rows.append("| %s | %s | %s |" % (sid, _m(built.get("params")), _m(spec.get("rules_params"))))
            lora_by_family[spec["family"]] = [(built.get("lora_params") or 0) / rank, spec.get("lora_params_per_rank")]
        else:
            rows.append("| %s | decoder %s | – |" % (sid, _m(built.get("decoder_params"))))
    if not rows:
        return []
    out = ["", "## Built models against the rules", "", "| spec | built parameters | rules |", "|---|---|---|"] + rows
    out += ["", "| family | LoRA parameters per rank, built × blocks | rules `lora_params_per_rank` |", "|---|---|---|"]
    for fam, (built, rules) in lora_by_family.items():
        out.append("| %s | %s | %s |" % (fam, "{:,.0f}".format(built), "{:,.0f}".format(rules) if rules else "–"))
    return out


def _m(x):
    return "–" if not x else "%.1f M" % (x / 1e6)


def markdown(data):
    """The report: memory.yaml keys, per-family terms, the full-depth check, sensitivity, failures."""
    d, est, prov = data["derived"], data["estimate_side"], data.get("provenance") or {}
    lines = ["# Measured activation and VAE coefficients", ""]
    lines.append("GPU: %s · driver %s · CUDA %s · torch %s · %s · precision mode %s" % (
        prov.get("gpu_name", "?"), prov.get("driver", "?"), prov.get("cuda", "?"), prov.get("torch", "?"),
        prov.get("date_utc", "?"), (data.get("settings") or {}).get("mode", "?")))
    lines.append("")
    lines.append("Measured = peak above the weights of one step, from `torch.cuda.max_memory_allocated` "
                 "(reserved: `max_memory_reserved`). *Effective today* is the rules value as the estimator applies "
                 "it (training activation terms × multiplier %s)." % est.get("multiplier"))
    lines.append("")
    lines += ["| memory.yaml key | rules today | effective today | measured allocated | measured reserved | allocated / effective |",
              "|---|---|---|---|---|---|"]
    alloc, reserved = d["memory_yaml"]["peak_allocated"], d["memory_yaml"]["peak_reserved"]
    for key in alloc:
        rule, eff = _today(est, key)
        lines.append("| `%s` | %s | %s | %s | %s | %s |" % (
            key, _f(rule, 0), _f(eff, 1), _f(alloc[key], 1), _f(reserved.get(key), 1), _ratio(alloc[key], eff)))
    a = d["allocator"]
    lines.append("| `overheads.allocator_fraction` (reserved / allocated − 1, largest training cases) | %s | %s | %s | – | – |"
                 % (_f(est.get("allocator_fraction"), 2), _f(est.get("allocator_fraction"), 2), _f(a["median_fraction"], 3)))
    lines += ["", "## Per family, bytes per token per channel (allocated; reserved in brackets)", "",
              "| family | hidden | per checkpointed block | recomputed block | per block, no checkpointing | once, no checkpointing | sampling |",
              "|---|---|---|---|---|---|---|"]
    for fam, f in d["families"].items():
        cells = []
        for name in ("checkpoint", "recompute", "block", "full_once", "inference"):
            cells.append("%s [%s]" % (_f(f["peak_allocated"][name], 2), _f(f["peak_reserved"][name], 2)))
        label = fam + (" (extra)" if f["extra"] else "")
        lines.append("| %s | %d | %s |" % (label, f["hidden"], " | ".join(cells)))
    lines.append("| rules today | – | %s | %s | %s | – | %s |" % (
        _f(est.get("checkpoint_bytes_per_token_channel"), 0), _f(est.get("block_bytes_per_token_channel"), 0),
        _f(est.get("block_bytes_per_token_channel"), 0), _f(est.get("inference_bytes_per_token_channel"), 0)))
    lines += ["", "## Whole model at %d image tokens, batch 1 (GiB; measured = per-block terms × the arch's blocks)" %
              REFERENCE_IMAGE_TOKENS, "",
              "| family | blocks | seq | checkpointed: estimate | measured alloc | measured reserved | ratio | "
              "no checkpointing: estimate | measured alloc | ratio | sampling: estimate | measured alloc | ratio |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for fam, r in d["full_depth"].items():
        g = lambda k: r.get(k) / GIB if r.get(k) is not None else None  # noqa: E731
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            fam, r["blocks"], r["seq"], _f(g("estimate_checkpointed"), 2), _f(g("measured_checkpointed_peak_allocated"), 2),
            _f(g("measured_checkpointed_peak_reserved"), 2),
            _ratio(r.get("measured_checkpointed_peak_allocated"), r.get("estimate_checkpointed")),
            _f(g("estimate_full"), 2), _f(g("measured_full_peak_allocated"), 2),
            _ratio(r.get("measured_full_peak_allocated"), r.get("estimate_full")),
            _f(g("estimate_sampling"), 2), _f(g("measured_sampling_peak_allocated"), 2),
            _ratio(r.get("measured_sampling_peak_allocated"), r.get("estimate_sampling"))))
    if d["sensitivity"]:
        lines += ["", "## Precision mode (allocated, per token per channel)", "",
                  "| case | mode | term | this mode | default mode |", "|---|---|---|---|---|"]
        for sid, s in d["sensitivity"].items():
            for term in ("checkpoint", "recompute", "block", "checkpointed", "full"):
                if term in s["measured"]:
                    lines.append("| %s | %s | %s | %s | %s |" % (
                        s["base"], s["mode"], term, _f(s["measured"][term], 2), _f(s["base_measured"][term], 2)))
    lines += _built_section(data)
    failed = [m for m in data["measurements"] if m.get("status") != "ok"]
    lines += ["", "%d cases measured, %d not (%s)." % (
        len(data["measurements"]) - len(failed), len(failed),
        ", ".join(sorted({m["status"] for m in failed})) or "none")]
    for m in failed[:40]:
        lines.append("- `%s`: %s %s" % (m["id"], m["status"], m.get("error", "")))
    return "\n".join(lines) + "\n"
