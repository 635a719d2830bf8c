#!/usr/bin/env python3
"""CPU census of activation memory from the real block graphs (issue #18), no GPU needed.

Each family's DiT block (scripts/gpu/dit.py), the SD 1.5 / SDXL UNets (unet.py) and the VAE decoders
(vae.py) run forward and backward on the CPU in bf16 with LoRA on AI Toolkit's default targets, in AI
Toolkit's precision (layers.Precision "aitk"). Two instruments count the bytes:
  saved set   torch.autograd.graph.saved_tensors_hooks: every tensor autograd keeps for backward, deduplicated
              by storage, parameters left out;
  peaks       torch.profiler's CPU allocator events (profile_memory): the running total of live bytes, with the
              attention kernel's chunk tiles (SRAM on a GPU, layers.TILE_SCOPE) left out.
Blocks run at a reduced width (fewer heads of the real head size, MLP ratio and LoRA rank / width kept) at
two widths and several token counts: a coefficient is the slope of bytes over tokens, divided by the width,
and the two widths must agree. Writes the JSON that tests/census/results.json holds and prints the tables.

  /usr/bin/python3 scripts/census/census.py                      # everything (a few minutes on 2 cores)
  /usr/bin/python3 scripts/census/census.py --only flux,vae.kl    # spec id prefixes
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import copy  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "gpu"))

import plan  # noqa: E402
import rules_data  # noqa: E402

SCHEMA = "oomlint-census/1"
RANK = 16                       # AI Toolkit's default network rank (linear: 16)
WIDTHS = (128, 256)             # reduced widths for the scaling check (1 and 2 heads of 128)
TOKENS = (256, 512, 1024)       # image tokens per sample
STACK = 2                       # blocks in the small stack
TEXT_TOKENS = 256               # cross-attention context tokens at most (they only set the intercept)
UNET_SCALES = (4, 8)            # channel divisors of the UNets and VAE decoders (the second checks scaling)
UNET_SIDES = (32, 48, 64)       # latent sides (256-512 px)
VAE_SIZES = (256, 384, 512)     # output pixels per side


# ---- instruments -------------------------------------------------------------------------------------------

class SavedSet:
    """Storages autograd saves for backward while active, by data_ptr, parameters and `shared` left out.
    Each storage is attributed to the innermost module running when it was first saved."""

    def __init__(self, model, exclude):
        self.exclude = set(exclude)
        self.storages = {}
        self.stack = ["(block)"]
        self.model = model
        self.handles = []

    def _pack(self, t):
        st = t.storage()
        ptr = st.data_ptr()
        if ptr and ptr not in self.exclude and ptr not in self.storages:
            self.storages[ptr] = dict(bytes=st.nbytes(), dtype=str(t.dtype).replace("torch.", ""),
                                      owner=self.stack[-1], shape=list(t.shape))
        return t

    def __enter__(self):
        for name, m in self.model.named_modules():
            self.handles.append(m.register_forward_pre_hook(lambda mod, inp, n=name: self.stack.append(n or "(block)")))
            self.handles.append(m.register_forward_hook(lambda mod, inp, out: self.stack.pop() and None))
        self.hooks = torch.autograd.graph.saved_tensors_hooks(self._pack, lambda t: t)
        self.hooks.__enter__()
        return self

    def __exit__(self, *exc):
        self.hooks.__exit__(*exc)
        for h in self.handles:
            h.remove()

    def total(self, pred=lambda s: True):
        return sum(s["bytes"] for s in self.storages.values() if pred(s))


class Timeline:
    """Live CPU bytes over one profiler session, above the session's start: `peak` and the final `level`.

    Left out: allocations inside layers.TILE_SCOPE (the attention kernel's tiles, on-chip on a GPU) and an op's
    own scratch, allocated and freed inside one outermost aten:: op (the CPU convolution's reorder of its
    output, copies for strided matmuls), whose GPU counterparts are cuDNN/cuBLAS workspaces of other sizes;
    `peak_with_scratch` keeps the scratch."""

    def __init__(self, tree):
        events = []

        def walk(node, in_tile, op):
            in_tile = in_tile or node.name == layers.TILE_SCOPE
            if op is None and node.name.startswith("aten::"):
                op = node.id
            if node.tag.name == "Allocation":
                f = node.extra_fields
                events.append((node.start_time_ns, node.id, f.alloc_size, f.ptr, in_tile, op))
            for c in node.children:
                walk(c, in_tile, op)

        for root in tree:
            walk(root, False, None)
        events.sort()
        live, tile, scratch = {}, set(), set()  # ptr -> index of its allocation; indices left out
        for i, (_, _, size, ptr, in_tile, op) in enumerate(events):
            if size > 0:
                live[ptr] = i
                if in_tile:
                    tile.add(i)
            elif ptr in live:
                j = live.pop(ptr)
                if j in tile:
                    tile.add(i)
                elif op is not None and events[j][5] == op:
                    scratch.update((i, j))
        self.peak, self.level = self._run(events, tile | scratch)
        self.peak_with_scratch, _ = self._run(events, tile)

    @staticmethod
    def _run(events, skip):
        level = peak = 0
        for i, e in enumerate(events):
            if i not in skip:
                level += e[2]
                peak = max(peak, level)
        return peak, level


def use_layers():
    """For a census script beside this one (which imports this file, and with it scripts/gpu on the path): the layers
    module whose TILE_SCOPE the Timeline reads, as main() sets it for the census itself."""
    global layers
    import layers as module  # noqa: PLC0415
    layers = module


def inference_timeline(fn):
    """fn run without autograd under the profiler: its Timeline (the result dropped before it returns)."""
    import torch  # noqa: PLC0415
    with torch.no_grad():
        tl, out = profiled(fn)
    del out
    return tl


def profiled(fn):
    """Runs fn under the kineto CPU profiler with memory events; torch.profiler.profile would do the same, but
    also converts every event to a FunctionEvent on exit, which the census does not read and which costs more
    than the step itself. Returns (Timeline, fn's result)."""
    from torch.autograd import ProfilerActivity, ProfilerConfig, ProfilerState  # noqa: PLC0415
    from torch.autograd import _disable_profiler, _enable_profiler, _prepare_profiler  # noqa: PLC0415
    from torch._C._profiler import _ExperimentalConfig  # noqa: PLC0415

    config = ProfilerConfig(ProfilerState.KINETO, False, True, False, False, False, _ExperimentalConfig())
    activities = {ProfilerActivity.CPU}
    # Garbage from earlier steps (autograd graphs in reference cycles) must not be freed inside the session.
    gc.collect()
    gc.disable()
    _prepare_profiler(config, activities)
    _enable_profiler(config, activities)
    try:
        result = fn()
    finally:
        events = _disable_profiler()
        gc.enable()
    return Timeline(events.experimental_event_tree()), result


def storage_bytes(*tensors):
    seen = {}
    for t in tensors:
        if t is not None:
            seen[t.storage().data_ptr()] = t.storage().nbytes()
    return sum(seen.values())


def ptrs(*tensors):
    return [t.storage().data_ptr() for t in tensors if t is not None]


def fit(xs, ys):
    """Least-squares slope and intercept."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return slope, my - slope * mx


# ---- DiT blocks ----------------------------------------------------------------------------------------------

def reduced(spec, width):
    """The spec at `width` channels: real head size, same MLP ratio, LoRA rank scaled with the width."""
    head = spec["hidden"] // spec["heads"]
    s = copy.deepcopy(spec)
    s["heads"] = max(1, round(width / head))
    s["hidden"] = s["heads"] * head
    s["mlp_inner"] = round(spec["mlp_inner"] * s["hidden"] / spec["hidden"])
    s["rank"] = max(1, round(RANK * s["hidden"] / spec["hidden"]))
    s["text_tokens"] = min(spec["text_tokens"], TEXT_TOKENS)
    return s


class DitCase:
    """One block (or a stack) of a reduced spec with inputs for `image_tokens`."""

    def __init__(self, spec, image_tokens, depth, rank, prec):
        self.spec, self.prec = spec, prec
        self.stack = dit.DiTStack(spec, depth, prec, rank)
        self.kind = spec["kind"]
        b, h, dt = 1, spec["hidden"], prec.dtype
        self.joint = self.kind in ("single", "joint", "mmdit")
        # Joint blocks: text grows with the image at the family's own ratio (its text tokens to the 4096 image
        # tokens of 1024²), so the peaks of the two streams scale together. Cross-attention: a fixed context.
        self.text = max(1, round(image_tokens * spec["text_tokens"] / 4096)) if self.joint else spec["text_tokens"]
        # the sequence the estimator counts: image tokens, plus text where it joins the attention
        self.seq = image_tokens + (self.text if self.joint else 0)
        vec = torch.randn(b, dit.temb_width(spec), dtype=dt)
        with torch.no_grad():
            self.temb = self.stack._temb(vec)
        self.rope = layers.rope_tables(self.seq if self.joint else image_tokens, spec["hidden"] // spec["heads"],
                                       "cpu") if spec["rope"] else None
        if self.kind == "mmdit":
            self.hidden = [torch.randn(b, image_tokens, h, dtype=dt), torch.randn(b, self.text, h, dtype=dt)]
        else:
            self.hidden = [torch.randn(b, self.seq if self.kind in ("single", "joint") else image_tokens, h, dtype=dt)]
        self.ctx = torch.randn(b, self.text, h, dtype=dt) if self.kind == "cross" else None

    def shared(self):
        temb = self.temb if isinstance(self.temb, tuple) else (self.temb,)
        rope = self.rope or ()
        return ptrs(*temb, *rope, self.ctx)

    def inputs(self, grad=True):
        return [x.detach().clone().requires_grad_(grad) for x in self.hidden]

    def forward(self, hidden, depth, checkpointing):
        blocks = self.stack.blocks[:depth]
        for block in blocks:
            call = (lambda *a, b=block: checkpoint(b, *a, use_reentrant=False)) if checkpointing else block
            if self.kind == "mmdit":
                hidden = list(call(hidden[0], hidden[1], self.temb, self.rope))
            elif self.kind == "cross":
                hidden = [call(hidden[0], self.ctx, self.temb, self.rope)]
            else:
                hidden = [call(hidden[0], self.temb, self.rope)]
        return hidden

    def token_channels(self):
        return self.seq * self.spec["hidden"]

    def zero_grads(self):
        for p in self.stack.parameters():
            p.grad = None


def weights(model):
    return [t.storage().data_ptr() for t in list(model.parameters()) + list(model.buffers())]


def dit_measure(case, depth):
    """All figures of one case, in bytes (not yet per token·channel)."""
    out = {}
    block = case.stack.blocks[0]
    # a + b. one block, no checkpointing: the saved set (by owner, dtype) and the allocator's running total
    x = case.inputs()
    with SavedSet(block, weights(case.stack) + case.shared()) as saved:
        fwd, y = profiled(lambda: case.forward(x, 1, False))
    grads = [torch.randn_like(t) for t in y]
    bwd, _ = profiled(lambda: torch.autograd.backward(y, grads))
    out["saved"] = saved.total()
    out["saved_fp32"] = saved.total(lambda s: s["dtype"] == "float32")
    out["saved_input"] = sum(saved.storages[p]["bytes"] for p in ptrs(*x) if p in saved.storages)
    out["saved_by_owner"] = {}
    for s in saved.storages.values():
        key = s["owner"].rsplit(".", 1)[-1] if s["owner"].endswith((".down", ".up", ".base")) else "other"
        out["saved_by_owner"][key] = out["saved_by_owner"].get(key, 0) + s["bytes"]
    out["linears"] = linear_report(block, saved)
    out["fwd_level"], out["fwd_peak"], out["bwd_peak"] = fwd.level, fwd.peak, bwd.peak
    out["output"] = storage_bytes(*y)
    case.zero_grads()
    del x, y, grads, saved
    # checkpointed stack: what each block keeps, then the backward with one block recomputed at a time
    x = case.inputs()
    fwd, y = profiled(lambda: case.forward(x, depth, True))
    grads = [torch.randn_like(t) for t in y]
    bwd, _ = profiled(lambda: torch.autograd.backward(y, grads))
    out["ckpt_level"], out["ckpt_bwd_peak"] = fwd.level, bwd.peak
    case.zero_grads()
    del x, y, grads
    # d. inference: one block under no_grad; the input hidden states count as working memory
    x = case.inputs(grad=False)
    with torch.no_grad():
        inf, y = profiled(lambda: case.forward(x, 1, False))
    out["inference_peak"] = inf.peak + storage_bytes(*x)
    out["rope"] = storage_bytes(*case.rope) if case.rope else 0
    del x, y
    return out


def frozen_measure(case):
    """The same block without LoRA (rank 0): its saved set and its inference peak."""
    x = case.inputs()
    with SavedSet(case.stack.blocks[0], weights(case.stack) + case.shared()) as saved:
        case.forward(x, 1, False)
    x = case.inputs(grad=False)
    with torch.no_grad():
        inf, _ = profiled(lambda: case.forward(x, 1, False))
    return dict(saved_frozen=saved.total(), inference_frozen_peak=inf.peak + storage_bytes(*x))


def stack_check(case, depth):
    """A no-checkpointing stack keeps `depth` times one block's saved set (live bytes after forward)."""
    levels = []
    for d in (1, depth):
        x = case.inputs()
        fwd, y = profiled(lambda: case.forward(x, d, False))
        levels.append(fwd.level)
        del x, y
    return round(levels[1] / levels[0] / depth, 3)


def linear_report(block, saved):
    """c. Per Linear of the block: what its frozen base and its LoRA keep beyond parameters."""
    rows = []
    by_owner = {}
    for s in saved.storages.values():
        by_owner.setdefault(s["owner"], []).append(s)
    for name, m in block.named_modules():
        if not isinstance(m, layers.LoRALinear):
            continue
        base = sum(s["bytes"] for s in by_owner.get(name + ".base", []))
        down = by_owner.get(name + ".down", [])
        up = by_owner.get(name + ".up", [])
        rows.append(dict(name=name, in_features=m.base.in_features, out_features=m.base.out_features,
                         base_saved=base, down_saved=sum(s["bytes"] for s in down),
                         down_dtypes=sorted({s["dtype"] for s in down}), up_saved=sum(s["bytes"] for s in up)))
    return rows


def dit_family(raw, rules, tokens, widths):
    spec = plan.dit_spec(rules, raw)
    runs = []
    t0 = time.monotonic()
    for width in widths:
        s = reduced(spec, width)
        rows = []
        for n in tokens:
            torch.manual_seed(0)
            case = DitCase(s, n, STACK, s["rank"], PREC)
            m = dit_measure(case, STACK)
            m.update(image_tokens=n, seq=case.seq)
            m.update(frozen_measure(DitCase(s, n, 1, 0, PREC)))
            if n == tokens[-1]:
                m["stack_over_single"] = stack_check(case, STACK)
            rows.append(m)
            del case
        runs.append(dict(width=s["hidden"], heads=s["heads"], mlp_inner=s["mlp_inner"], rank=s["rank"], rows=rows))
    return dit_derived(dict(id=raw["id"], arch=raw["arch"], variant=raw.get("variant"), kind=spec["kind"],
                            hidden=spec["hidden"], heads=spec["heads"], mlp_inner=spec["mlp_inner"],
                            text_tokens=spec["text_tokens"], blocks=spec["weight"],
                            seconds=round(time.monotonic() - t0, 1), runs=runs))


def dit_derived(entry):
    for run in entry["runs"]:
        run["coefficients"] = dit_coefficients(run["width"], run["rows"])
    entry["coefficients"] = entry["runs"][-1]["coefficients"]
    entry["width_agreement"] = width_agreement(entry["runs"])
    return entry


def dit_coefficients(h, rows):
    """Bytes per token per channel: slopes over the sequence, divided by the width."""
    seqs = [r["seq"] for r in rows]

    def per_tc(key, f=lambda r, k: r[k]):
        slope, intercept = fit(seqs, [f(r, key) for r in rows])
        return round(slope / h, 2)

    c = dict(
        saved=per_tc("saved"),
        saved_fp32=per_tc("saved_fp32"),
        saved_frozen=per_tc("saved_frozen"),
        saved_lora_inputs=per_tc("down", lambda r, k: r["saved_by_owner"].get(k, 0)),
        fwd_bwd_peak=per_tc("x", lambda r, k: max(r["fwd_peak"], r["fwd_level"] + r["bwd_peak"])),
        bwd_beyond_saved=per_tc("x", lambda r, k: r["fwd_level"] + r["bwd_peak"] - r["saved"]),
        checkpoint=per_tc("ckpt_level", lambda r, k: r[k] / STACK),
        recompute_peak=per_tc("ckpt_bwd_peak"),
        inference=per_tc("inference_peak"),
        inference_frozen=per_tc("inference_frozen_peak"),
    )
    c["stack_over_single"] = rows[-1]["stack_over_single"]
    c["rope_bytes_per_token"] = round(fit(seqs, [r["rope"] for r in rows])[0], 1)
    return c


def width_agreement(runs):
    a, b = runs[0]["coefficients"], runs[-1]["coefficients"]
    return {k: round(b[k] / a[k] - 1, 3) for k in a if k not in ("rope_bytes_per_token", "stack_over_single") and a[k]}


# ---- UNets and VAE decoders: every feature map is channels × pixels, so they run at a fraction of the
# released channel widths (heads kept, LoRA rank scaled alike) and the bytes per pixel are scaled back up.
# What does not scale with the channels (weights reordered per call by the CPU's convolution, the text
# context) is a constant that the slope over pixels leaves out; naive attention's s² term is fitted apart.

def unet_family(raw, rules, scales, sides):
    spec = plan.unet_spec(rules, raw)
    t0 = time.monotonic()
    runs = []
    for scale in scales:
        s = copy.deepcopy(spec)
        s["unet"]["channels"] = tuple(c // scale for c in spec["unet"]["channels"])
        torch.manual_seed(0)
        model = unet.UNet(s, PREC, max(1, RANK // scale))
        rows = []
        for side in sides if scale == scales[0] else (sides[0], sides[-1]):
            row = dict(latent_side=side, latent_pixels=side * side)
            for ckpt in (False, True):
                inp = model.make_inputs(side, 1, s, PREC)

                def step():
                    out = model(inp["latents"], inp["context"], inp["added"], ckpt)
                    F.mse_loss(out.float(), inp["target"].float()).backward()

                tl, _ = profiled(step)
                row["ckpt_peak" if ckpt else "full_peak"] = tl.peak
                for p in model.parameters():
                    p.grad = None
            inp = model.make_inputs(side, 1, s, PREC)
            with torch.no_grad():
                tl, _ = profiled(lambda: model(inp["latents"], inp["context"], inp["added"], False))
            row["inference_peak"] = tl.peak
            rows.append(row)
        runs.append(dict(channel_divisor=scale, rank=max(1, RANK // scale), rows=rows))
        del model
    entry = dict(id=raw["id"], arch=raw["arch"], layout=spec["unet"]["source"], seconds=round(time.monotonic() - t0, 1),
                 runs=runs)
    return unet_derived(entry)


def unet_derived(entry):
    """Bytes per latent pixel at the released widths: the slope between the two largest sides (the peak's
    location can move at the smallest), times the channel divisor; the two divisors must agree."""
    for run in entry["runs"]:
        a, b = run["rows"][-2], run["rows"][-1]
        run["bytes_per_latent_pixel"] = {
            k: round((b[k] - a[k]) / (b["latent_pixels"] - a["latent_pixels"]) * run["channel_divisor"])
            for k in ("full_peak", "ckpt_peak", "inference_peak")}
    a, b = entry["runs"][0]["bytes_per_latent_pixel"], entry["runs"][-1]["bytes_per_latent_pixel"]
    entry["bytes_per_latent_pixel"] = a
    entry["width_agreement"] = {k: round(b[k] / a[k] - 1, 3) for k in a}
    return entry


VAE_CASES = (
    # (id, arch whose rules entry gives the latent channels, layout, temporal)
    ("vae.kl_f8.4ch", "sdxl", "kl_f8", False),
    ("vae.kl_f8.16ch", "flux", "kl_f8", False),
    ("vae.wan.image", "qwen_image", "wan", False),
    ("vae.wan.video", "wan21", "wan", True),
    # HunyuanVideo's decoder takes all its latent frames at once: 3 latent frames, 9 output frames here (the
    # figure is per output frame-pixel; vae.hunyuan.frames checks it scales with the frames)
    ("vae.hunyuan.video", "hunyuan_video", "hunyuan", True),
)


def vae_family(case, rules, scales, sizes):
    vid, arch, layout, temporal = case
    spec = plan.vae_spec(rules, dict(id=vid, arch=arch, layout=layout, temporal=temporal, sizes=sizes, keys=()))
    t0 = time.monotonic()
    rows = []
    for scale in scales:
        s = copy.deepcopy(spec)
        if layout in ("kl_f8", "hunyuan"):
            s["vae"]["block_out_channels"] = tuple(c // scale for c in spec["vae"]["block_out_channels"])
        if layout == "hunyuan":
            s["latent_frames"] = 3
        else:
            s["vae"]["base_dim"] = spec["vae"]["base_dim"] // scale
        for dtype in (torch.bfloat16, torch.float32):
            prec = layers.Precision("bf16", "cpu")
            prec.dtype = dtype
            torch.manual_seed(0)
            model = vae.build_decoder(s, prec)
            layers.set_attention("chunked")
            for size in sizes if scale == scales[0] else (sizes[0], sizes[-1]):
                z = model.make_latents(s, size, size, 1, prec)
                with torch.no_grad():
                    tl, out = profiled(lambda: model(z, temporal=temporal))
                row = dict(channel_divisor=scale, dtype=str(dtype).replace("torch.", ""), size=size,
                           frames=out.shape[2] if out.dim() == 5 else 1, latent_tokens=z.shape[-1] * z.shape[-2],
                           peak=tl.peak, peak_with_scratch=tl.peak_with_scratch)
                del out
                # the mid-block attention alone (its input counted), memory-efficient and naive
                mid = model.mid[1]
                width = mid.q.in_features if layout in ("kl_f8", "hunyuan") else mid.proj.in_channels
                fmap = torch.randn((1, width) + tuple(z.shape[2:]), dtype=dtype)
                for impl in ("chunked", "naive"):
                    layers.set_attention(impl)
                    with torch.no_grad():
                        att, _ = profiled(lambda: mid(fmap))
                    row["attention_%s" % impl] = att.peak + storage_bytes(fmap)
                layers.set_attention("chunked")
                rows.append(row)
            del model
    return vae_derived(dict(id=vid, arch=arch, vae_family=spec["vae_family"], latent_channels=spec["latent_channels"],
                            temporal=temporal, seconds=round(time.monotonic() - t0, 1), scales=list(scales), rows=rows))


def vae_derived(entry):
    rows, fits = entry["rows"], {}
    scales = entry.setdefault("scales", sorted({r["channel_divisor"] for r in rows}))
    for scale in scales:
        for dtype, elem in (("bfloat16", 2), ("float32", 4)):
            sel = [r for r in rows if r["channel_divisor"] == scale and r["dtype"] == dtype]
            px = [r["size"] ** 2 * r["frames"] for r in sel]
            slope, _ = fit(px, [r["peak"] for r in sel])
            big = sel[-1]
            fits["%s/÷%d" % (dtype, scale)] = dict(
                k=round(slope * scale / elem),
                k_with_scratch=round(fit(px, [r["peak_with_scratch"] for r in sel])[0] * scale / elem),
                # naive attention: scores and probabilities over one frame's latent tokens, bytes per token²
                naive_bytes_per_token2=round((big["attention_naive"] - big["attention_chunked"]) / big["latent_tokens"] ** 2, 2))
    a = fits["bfloat16/÷%d" % scales[0]]["k"]
    b = fits["bfloat16/÷%d" % scales[-1]]["k"]
    entry.update(fits=fits, k_bf16=a, k_fp32=fits["float32/÷%d" % scales[0]]["k"], width_agreement=round(b / a - 1, 3))
    return entry


# ---- output ------------------------------------------------------------------------------------------------

def table(results):
    lines = ["| block | width (real) | saved, no ckpt | of it LoRA inputs | saved without LoRA | fp32 share | ckpt kept | "
             "block in backward | inference | inference, LoRA path | widths agree |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["dit"]:
        c = r["coefficients"]
        worst = max(abs(v) for k, v in r["width_agreement"].items()
                    if k in ("saved", "checkpoint", "recompute_peak", "inference", "inference_frozen"))
        lines.append("| %s | %d (%d) | %.1f | %.1f | %.1f | %.0f%% | %.2f | %.1f | %.1f | %.1f | ±%.1f%% |" % (
            r["id"], r["runs"][-1]["width"], r["hidden"], c["saved"], c["saved_lora_inputs"], c["saved_frozen"],
            100 * c["saved_fp32"] / c["saved"], c["checkpoint"], c["recompute_peak"], c["inference_frozen"],
            c["inference"], 100 * worst))
    lines += ["", "| UNet | no ckpt, B/latent px | ckpt | inference, LoRA path | widths agree |", "|---|---|---|---|---|"]
    for u in results["unet"]:
        b = u["bytes_per_latent_pixel"]
        lines.append("| %s | %d | %d | %d | ±%.1f%% |" % (u["id"], b["full_peak"], b["ckpt_peak"], b["inference_peak"],
                                                      100 * max(abs(v) for v in u["width_agreement"].values())))
    lines += ["", "| VAE decoder | K bf16 | K fp32 | naive attention B/token² (bf16, fp32) | widths agree |", "|---|---|---|---|---|"]
    for v in results["vae"]:
        f = v["fits"]
        lines.append("| %s | %d | %d | %.1f, %.1f | ±%.1f%% |" % (
            v["id"], v["k_bf16"], v["k_fp32"], f["bfloat16/÷%d" % UNET_SCALES[0]]["naive_bytes_per_token2"],
            f["float32/÷%d" % UNET_SCALES[0]]["naive_bytes_per_token2"], 100 * abs(v["width_agreement"])))
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "census", "results.json"))
    p.add_argument("--rules-dir", help="compiled rules (default build/release/core/rules)")
    p.add_argument("--only", help="comma-separated spec id prefixes")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--rederive", action="store_true", help="recompute the derived figures of --out from its rows")
    p.add_argument("--mode", default="aitk", choices=("aitk", "bf16"),
                   help="precision of the trainer (scripts/gpu/layers.py Precision): aitk = AI Toolkit's fp32 LoRA path "
                        "(default), bf16 = LoRA in the model dtype without casts (PEFT-style trainers)")
    return p.parse_args(argv)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.rederive:
        with open(args.out, encoding="utf-8") as f:
            results = json.load(f)
        results["dit"] = [dit_derived(e) for e in results["dit"]]
        results["unet"] = [unet_derived(e) for e in results["unet"]]
        results["vae"] = [vae_derived(e) for e in results["vae"]]
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
        print(table(results))
        return 0
    global torch, F, checkpoint, layers, dit, unet, vae, PREC
    import torch  # noqa: PLC0415
    import torch.nn.functional as F  # noqa: PLC0415
    import torch.profiler  # noqa: F401, PLC0415
    from torch.utils.checkpoint import checkpoint  # noqa: PLC0415

    import dit  # noqa: PLC0415
    import layers  # noqa: PLC0415
    import unet  # noqa: PLC0415
    import vae  # noqa: PLC0415

    torch.set_num_threads(args.threads)
    PREC = layers.Precision(args.mode, "cpu")
    layers.set_attention("chunked" if not layers.has_fused_attention() else "auto")
    rules = rules_data.load(args.rules_dir)
    only = tuple(x.strip() for x in args.only.split(",")) if args.only else None
    want = lambda i: only is None or any(i.startswith(o) for o in only)  # noqa: E731
    start = time.monotonic()
    results = dict(schema=SCHEMA, provenance=dict(
        date_utc=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        command=" ".join(["/usr/bin/python3", "scripts/census/census.py"] + argv),
        torch=torch.__version__, python=platform.python_version(), machine=platform.machine(),
        threads=args.threads, precision=PREC.describe(), rank=RANK, attention=layers.ATTENTION["impl"],
        rules=rules.how), dit=[], unet=[], vae=[])
    if only and os.path.isfile(args.out):  # a partial run replaces its own entries in an earlier file
        with open(args.out, encoding="utf-8") as f:
            old = json.load(f)
        for group in ("dit", "unet", "vae"):
            results[group] = [e for e in old.get(group, []) if not want(e["id"])]
        results["provenance"]["earlier_runs"] = old["provenance"].get("earlier_runs", []) + [old["provenance"]["command"]]

    def record(group, entry):
        results[group] = [e for e in results[group] if e["id"] != entry["id"]] + [entry]
        results["provenance"]["seconds"] = round(time.monotonic() - start, 1)
        results["provenance"]["cpu_seconds"] = round(time.process_time(), 1)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
        os.replace(args.out + ".tmp", args.out)

    for raw in plan.DIT_SPECS + plan.EXTRA_DIT_SPECS:
        if want(raw["id"]):
            print("census: %s" % raw["id"], file=sys.stderr, flush=True)
            record("dit", dit_family(raw, rules, TOKENS, WIDTHS))
    for raw in plan.UNET_SPECS:
        if want(raw["id"]):
            print("census: %s" % raw["id"], file=sys.stderr, flush=True)
            record("unet", unet_family(raw, rules, UNET_SCALES, UNET_SIDES))
    for case in VAE_CASES:
        if want(case[0]):
            print("census: %s" % case[0], file=sys.stderr, flush=True)
            record("vae", vae_family(case, rules, UNET_SCALES, VAE_SIZES))
    print(table(results))
    print("wrote %s (%.0f s)" % (args.out, results["provenance"]["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
