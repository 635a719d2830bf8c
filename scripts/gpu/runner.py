"""Runs the cases on the GPU: builds each spec once, warms it up, measures every case, survives OOMs.

A measurement is the peak of torch.cuda.max_memory_allocated / max_memory_reserved above what was
allocated / reserved just before the step (the weights, the LoRA parameters, the caching allocator's
held segments after empty_cache), so it is the step's own working memory: activations, autograd saves,
transients, LoRA gradients.
"""

import functools
import gc
import sys
import time

import torch
import torch.nn.functional as F

import plan
from dit import DiTStack
from layers import Precision, count_params, lora_parameters
from unet import UNet
from vae import build_decoder

OOM_ERRORS = tuple(e for e in (getattr(torch.cuda, "OutOfMemoryError", None),) if e is not None)


def is_oom(exc):
    return isinstance(exc, OOM_ERRORS) or "out of memory" in str(exc).lower()


class Meter:
    """Peak memory of one call, relative to what was held just before it."""

    def __init__(self, device):
        self.cuda = torch.device(device).type == "cuda"

    def clean(self):
        gc.collect()
        if self.cuda:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()

    def measure(self, fn):
        self.clean()
        base_alloc = torch.cuda.memory_allocated() if self.cuda else 0
        base_reserved = torch.cuda.memory_reserved() if self.cuda else 0
        if self.cuda:
            torch.cuda.reset_peak_memory_stats()
        start = time.perf_counter()
        fn()
        if self.cuda:
            torch.cuda.synchronize()
        seconds = time.perf_counter() - start
        peak_alloc = torch.cuda.max_memory_allocated() if self.cuda else 0
        peak_reserved = torch.cuda.max_memory_reserved() if self.cuda else 0
        return dict(peak_allocated=peak_alloc - base_alloc, peak_reserved=peak_reserved - base_reserved,
                    baseline_allocated=base_alloc, baseline_reserved=base_reserved, seconds=round(seconds, 4))


def context_probe(device):
    """Memory the process holds outside PyTorch's allocator (CUDA context, cuBLAS/cuDNN handles) after
    one GEMM, one attention and one convolution: the estimator's overheads.cuda_context_bytes."""
    if torch.device(device).type != "cuda":
        return None
    a = torch.randn(1024, 1024, device=device, dtype=torch.bfloat16)
    (a @ a).sum().item()
    q = torch.randn(1, 8, 256, 64, device=device, dtype=torch.bfloat16)
    getattr(F, "scaled_dot_product_attention", lambda q, k, v: q)(q, q, q).sum().item()
    F.conv2d(torch.randn(1, 32, 64, 64, device=device, dtype=torch.bfloat16),
             torch.randn(32, 32, 3, 3, device=device, dtype=torch.bfloat16), padding=1).sum().item()
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    reserved = torch.cuda.memory_reserved()
    return dict(total=total, free=free, torch_reserved=reserved, outside_torch=total - free - reserved)


# ---- one step of each kind ----------------------------------------------------------------------------

def _zero_lora_grads(model):
    for p in lora_parameters(model):
        p.grad = None


def dit_step(model, case, prec):
    inputs = model.make_inputs(case["image_tokens"], case["batch"], prec)
    training = case["phase"] == "train"
    with torch.set_grad_enabled(training), prec.context():
        out = model(inputs["latents"], inputs["text"], inputs["vec"], case["depth"], case["checkpointing"])
        loss = F.mse_loss(out.float(), inputs["target"].float()) if training else None
    if training:
        loss.backward()
        _zero_lora_grads(model)


def unet_step(model, case, spec, prec):
    inputs = model.make_inputs(case["latent_side"], case["batch"], spec, prec)
    training = case["phase"] == "train"
    with torch.set_grad_enabled(training), prec.context():
        out = model(inputs["latents"], inputs["context"], inputs["added"], case["checkpointing"])
        loss = F.mse_loss(out.float(), inputs["target"].float()) if training else None
    if training:
        loss.backward()
        _zero_lora_grads(model)


def vae_step(model, case, spec, prec):
    z = model.make_latents(spec, case["width"], case["height"], case["frames"], prec)
    with torch.no_grad():
        model(z, temporal=spec["temporal"])


# ---- specs ------------------------------------------------------------------------------------------------

class Built:
    """A spec's model on the device and the step that runs one of its cases."""

    def __init__(self, spec, settings):
        self.spec = spec
        mode = spec.get("mode", settings["mode"])
        self.prec = Precision("bf16" if spec["group"] == "vae" else mode, settings["device"], settings["smoke"])
        rank = settings["rank"]
        if spec["group"] == "dit":
            self.model = DiTStack(spec, max(settings["stacks"]), self.prec, rank)
            block_base, block_lora = count_params(self.model.blocks[0])
            self.info = dict(block_params=block_base, block_lora_params=block_lora)
        elif spec["group"] == "unet":
            self.model = UNet(spec, self.prec, rank)
            base, lora = count_params(self.model)
            self.info = dict(params=base, lora_params=lora)
        else:
            self.model = build_decoder(spec, self.prec)
            self.info = dict(decoder_params=count_params(self.model)[0])
        self.info["precision"] = self.prec.describe()

    def step(self, case):
        if self.spec["group"] == "dit":
            return dit_step(self.model, case, self.prec)
        if self.spec["group"] == "unet":
            return unet_step(self.model, case, self.spec, self.prec)
        return vae_step(self.model, case, self.spec, self.prec)


def _warm_cases(cases):
    """The smallest case of each phase and checkpointing choice: first-use allocations (cuBLAS workspace,
    kernel selection) land here instead of in a measured case."""
    seen, out = set(), []
    for c in cases:
        key = (c["phase"], c.get("checkpointing"))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _failure(case, exc):
    status = "oom" if is_oom(exc) else "error"
    return dict(case, status=status, error="%s: %s" % (type(exc).__name__, str(exc).splitlines()[0][:300] if str(exc) else ""))


def run_spec(spec, cases, settings, meter, deadline, record, log):
    """Builds one spec, measures its cases in order, records each; returns the spec's build info."""
    if time.monotonic() > deadline:
        for c in cases:
            record(dict(c, status="skipped", error="time budget spent before this spec"))
        return dict(status="skipped")
    meter.clean()
    try:
        built = Built(spec, settings)
    except Exception as exc:  # noqa: BLE001 - one spec failing must not end the run
        for c in cases:
            record(_failure(c, exc))
        log("  %s: build failed: %s" % (spec["id"], exc))
        return dict(status="build-failed", error=str(exc)[:300])
    info = dict(built.info, status="built")
    for c in _warm_cases(cases):
        try:
            built.step(c)
        except Exception as exc:  # noqa: BLE001 - the measured case will say what happens
            info.setdefault("warmup_errors", []).append("%s: %s" % (c["id"], str(exc).splitlines()[0][:200]))
        meter.clean()
    for c in cases:
        if time.monotonic() > deadline:
            record(dict(c, status="skipped", error="time budget spent"))
            continue
        result = None
        try:
            result = dict(c, status="ok", **meter.measure(functools.partial(built.step, c)))
        except Exception as exc:  # noqa: BLE001 - OOM and kernel errors are results, not the end
            result = _failure(c, exc)
        _zero_lora_grads(built.model)
        meter.clean()
        record(result)
        log("  %-58s %s" % (c["id"], _short(result)))
    built = None  # drop the model before the next spec is built
    meter.clean()
    return info


def _short(r):
    if r["status"] != "ok":
        return r["status"] + (" (" + r.get("error", "") + ")" if r.get("error") else "")
    return "alloc %8.1f MiB  reserved %8.1f MiB  %.3f s" % (
        r["peak_allocated"] / 2 ** 20, r["peak_reserved"] / 2 ** 20, r["seconds"])


def run(specs, settings, record, log=lambda s: print(s, file=sys.stderr, flush=True)):
    """Measures every spec within settings['budget_seconds']; returns {spec id: build info}."""
    meter = Meter(settings["device"])
    deadline = time.monotonic() + settings["budget_seconds"]
    infos = {}
    for spec in specs:
        cases = plan.cases_for(spec, settings["tokens"], settings["stacks"], settings["mode"])
        log("%s (%d cases)" % (spec["id"], len(cases)))
        infos[spec["id"]] = run_spec(spec, cases, settings, meter, deadline, record, log)
    return infos
