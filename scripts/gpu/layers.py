"""Building blocks shared by the measured models: precision, LoRA linears, norms, RoPE, attention.

They follow the op sequence of the diffusers/AI Toolkit code they stand for, because what autograd
saves (and in which dtype) is what the measurement is about: an fp32 upcast inside a norm or a RoPE, an
autocast cast in front of a Linear, each leaves a tensor alive until backward.
"""

import contextlib
import math

import torch
import torch.profiler
import torch.nn as nn
import torch.nn.functional as F

MODES = ("autocast", "autocast-cast", "bf16", "aitk")


class Precision:
    """How weights, LoRA and activations are typed.

    autocast       bf16 base weights, fp32 LoRA (AI Toolkit's network.force_to(..., float32)), the step under
                   torch.autocast(bf16): the LoRA Linear gets the block's activation as it is, as
                   toolkit/network_mixins.py calls lora_down(x). Norms run in fp32 under autocast.
    autocast-cast  the same, but the LoRA input is first cast to the LoRA dtype (x.to(lora_down.weight.dtype)),
                   as some AI Toolkit model paths do: autocast then makes a second bf16 copy per LoRA Linear.
    bf16           everything bf16, no autocast (a trainer that keeps LoRA in the model dtype).
    aitk           AI Toolkit at 27a03a9: bf16 base weights, fp32 LoRA, no autocast around the denoiser (the
                   autocast in toolkit/stable_diffusion_model.py is commented out); every adapted Linear casts
                   its input to fp32 ("always cast to float32", toolkit/network_mixins.py) and its LoRA output
                   back to the base dtype, so each keeps an fp32 copy of its input for backward.
    The CPU smoke run uses fp32 throughout and no autocast.
    """

    def __init__(self, mode, device, smoke=False):
        if mode not in MODES:
            raise ValueError("unknown precision mode %r (one of %s)" % (mode, ", ".join(MODES)))
        self.mode = mode
        self.device = torch.device(device)
        self.dtype = torch.float32 if smoke else torch.bfloat16
        self.autocast = mode.startswith("autocast") and not smoke
        self.lora_dtype = torch.float32 if (self.autocast or smoke or mode == "aitk") else torch.bfloat16
        self.cast_lora_input = mode in ("autocast-cast", "aitk")

    def context(self):
        if not self.autocast:
            return contextlib.nullcontext()
        return torch.autocast(device_type=self.device.type, dtype=self.dtype)

    def describe(self):
        return dict(mode=self.mode, weights=str(self.dtype), lora=str(self.lora_dtype), autocast=self.autocast)


def frozen(module):
    module.requires_grad_(False)
    return module


class LoRALinear(nn.Module):
    """A frozen Linear with a trainable rank-r LoRA beside it (alpha = rank: scale 1)."""

    def __init__(self, in_features, out_features, prec, rank, bias=True):
        super().__init__()
        self.base = frozen(nn.Linear(in_features, out_features, bias=bias, device=prec.device, dtype=prec.dtype))
        self.rank = rank
        self.cast_input = prec.cast_lora_input
        # aitk: the LoRA output is multiplied by the runtime scale (a 0-d fp32 buffer) and the network's
        # (batch,)-shaped fp32 multiplier before the cast back, as toolkit/network_mixins.py does.
        self.toolkit_scaling = prec.mode == "aitk"
        if rank > 0:
            self.down = nn.Linear(in_features, rank, bias=False, device=prec.device, dtype=prec.lora_dtype)
            self.up = nn.Linear(rank, out_features, bias=False, device=prec.device, dtype=prec.lora_dtype)
            nn.init.zeros_(self.up.weight)  # LoRA starts as a no-op; gradients still flow through it
            self.register_buffer("scale", torch.tensor(1.0, device=prec.device, dtype=prec.lora_dtype), persistent=False)

    def forward(self, x):
        y = self.base(x)
        if self.rank == 0:
            return y
        lx = x.to(self.down.weight.dtype) if self.cast_input else x
        lora = self.up(self.down(lx))
        if self.toolkit_scaling:  # the same temporaries, alive as long as there (lora_output lives to the end)
            lora = lora * self.scale
            scaled = lora * self.scale.new_ones((lora.shape[0],) + (1,) * (lora.dim() - 1))
            scaled = scaled.to(y.dtype)
            return y + scaled
        return y + lora.to(y.dtype)


def conv2d(cin, cout, k, prec, stride=1, padding=None):
    # Convolutions are not targets of AI Toolkit's default LoRA network: frozen in every model here.
    padding = k // 2 if padding is None else padding
    return frozen(nn.Conv2d(cin, cout, k, stride=stride, padding=padding, device=prec.device, dtype=prec.dtype))


def norm_groups(channels):
    # GroupNorm(32) in every released model; the tiny smoke widths fall back to a divisor.
    return 32 if channels % 32 == 0 else math.gcd(32, channels)


def group_norm(channels, prec, eps=1e-6):
    return frozen(nn.GroupNorm(norm_groups(channels), channels, eps=eps, device=prec.device, dtype=prec.dtype))


def layer_norm(dim, prec, affine=False, eps=1e-6):
    return frozen(nn.LayerNorm(dim, eps=eps, elementwise_affine=affine, device=prec.device, dtype=prec.dtype))


class RMSNorm(nn.Module):
    """diffusers RMSNorm: the variance in fp32, the result back in the weight dtype."""

    def __init__(self, dim, prec, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim, device=prec.device, dtype=prec.dtype), requires_grad=False)

    def forward(self, x):
        variance = x.to(torch.float32).pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.eps)
        return x.to(self.weight.dtype) * self.weight


class FP32LayerNorm(nn.Module):
    """diffusers FP32LayerNorm (Wan): normalises an fp32 copy and returns the input dtype."""

    def __init__(self, dim, prec, affine=False, eps=1e-6):
        super().__init__()
        self.dim = dim
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim, device=prec.device, dtype=prec.dtype), requires_grad=False) if affine else None
        self.bias = nn.Parameter(torch.zeros(dim, device=prec.device, dtype=prec.dtype), requires_grad=False) if affine else None

    def forward(self, x):
        w = self.weight.float() if self.weight is not None else None
        b = self.bias.float() if self.bias is not None else None
        return F.layer_norm(x.float(), (self.dim,), w, b, self.eps).to(x.dtype)


def rope_tables(seq, head_dim, device):
    """cos/sin tables (seq, head_dim) in fp32, computed once per forward outside the blocks as FLUX does."""
    half = head_dim // 2
    freqs = 1.0 / (10000.0 ** (torch.arange(0, half, device=device, dtype=torch.float32) / half))
    angles = torch.outer(torch.arange(seq, device=device, dtype=torch.float32), freqs)
    return angles.cos().repeat_interleave(2, dim=-1), angles.sin().repeat_interleave(2, dim=-1)


def apply_rope(x, rope):
    """diffusers apply_rotary_emb (use_real, interleaved pairs): computed in fp32, returned in x's dtype."""
    cos, sin = rope
    x_real, x_imag = x.reshape(*x.shape[:-1], -1, 2).unbind(-1)
    rotated = torch.stack([-x_imag, x_real], dim=-1).flatten(3)
    return (x.float() * cos + rotated.float() * sin).to(x.dtype)


def split_heads(x, heads):
    b, s, c = x.shape
    return x.view(b, s, heads, c // heads).transpose(1, 2)


def merge_heads(x):
    b, h, s, d = x.shape
    return x.transpose(1, 2).reshape(b, s, h * d)


# Attention implementation: "auto" = PyTorch's fused SDPA where it exists (torch >= 2.0, the GPU run), else
# the memory-efficient emulation below (torch 1.13 on the CPU census); "chunked" and "naive" force one.
ATTENTION = {"impl": "auto", "chunk": 256}
# Allocations made inside this profiler scope are the kernel's on-chip tiles (SRAM on a GPU): the CPU census
# leaves them out of its peaks (scripts/census/census.py).
TILE_SCOPE = "oomlint::attention_tile"


def set_attention(impl, chunk=None):
    if impl not in ("auto", "sdpa", "chunked", "naive"):
        raise ValueError("unknown attention implementation %r" % impl)
    ATTENTION["impl"] = impl
    if chunk:
        ATTENTION["chunk"] = int(chunk)


def _tile():
    return torch.profiler.record_function(TILE_SCOPE)


class MemoryEfficientAttention(torch.autograd.Function):
    """What a flash / memory-efficient kernel keeps, computed in query or key chunks on any device.

    Forward saves q, k, v, the output and the fp32 log-sum-exp per query (FlashAttention-2's softmax_lse);
    the output is laid out (b, s, heads, d) and returned transposed, as the fused kernels do, so merging the
    heads afterwards is a view. Backward recomputes the scores one key chunk at a time with an fp32 dq
    accumulator and an fp32 row sum of dout·out, as FlashAttention-2's backward does. Scores and
    probabilities exist one chunk at a time, inside TILE_SCOPE.
    """

    @staticmethod
    def forward(ctx, q, k, v, chunk):
        b, h, sq, _ = q.shape
        scale = q.shape[-1] ** -0.5
        acc = torch.promote_types(q.dtype, torch.float32)  # fp32 softmax statistics (fp64 under gradcheck)
        out = q.new_empty((b, sq, h, v.shape[-1])).transpose(1, 2)
        lse = q.new_empty((b, h, sq), dtype=acc)
        for i in range(0, sq, chunk):
            with _tile():
                s = torch.matmul(q[:, :, i:i + chunk], k.transpose(-1, -2)).to(acc) * scale
                m = s.amax(-1, keepdim=True)
                p = torch.exp(s - m)
                l = p.sum(-1, keepdim=True)
                out[:, :, i:i + chunk] = torch.matmul((p / l).to(v.dtype), v)
                lse[:, :, i:i + chunk] = (m + l.log()).squeeze(-1)
        ctx.chunk = chunk
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, dout):
        q, k, v, out, lse = ctx.saved_tensors
        chunk = ctx.chunk
        scale = q.shape[-1] ** -0.5
        acc = lse.dtype
        delta = q.new_empty(lse.shape, dtype=acc)
        for i in range(0, q.shape[2], chunk):
            with _tile():
                delta[:, :, i:i + chunk] = (dout[:, :, i:i + chunk].to(acc) * out[:, :, i:i + chunk].to(acc)).sum(-1)
        dq = torch.zeros(q.shape, dtype=acc, device=q.device)
        dk, dv = torch.empty_like(k), torch.empty_like(v)
        for j in range(0, k.shape[2], chunk):
            with _tile():
                kj, vj = k[:, :, j:j + chunk], v[:, :, j:j + chunk]
                p = torch.exp(torch.matmul(q, kj.transpose(-1, -2)).to(acc) * scale - lse.unsqueeze(-1))
                dv[:, :, j:j + chunk] = torch.matmul(p.to(v.dtype).transpose(-1, -2), dout)
                ds = p * (torch.matmul(dout, vj.transpose(-1, -2)).to(acc) - delta.unsqueeze(-1))
                ds = ds.to(q.dtype)
                dq += torch.matmul(ds, kj).to(acc) * scale
                dk[:, :, j:j + chunk] = torch.matmul(ds.transpose(-1, -2), q) * scale
        return dq.to(q.dtype), dk, dv, None


def naive_attention(q, k, v):
    """Math attention: the b·heads·s² scores and probabilities are materialised (and kept for backward)."""
    weights = torch.softmax((q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1]), dim=-1)
    return weights @ v.to(weights.dtype)


def attention(q, k, v):
    """Fused SDPA (flash / memory-efficient on CUDA): no s^2 scores kept. On torch < 2.0 (no SDPA) the
    memory-efficient emulation stands in, keeping what those kernels keep."""
    impl = ATTENTION["impl"]
    sdpa = getattr(F, "scaled_dot_product_attention", None)
    if impl == "naive":
        return naive_attention(q, k, v)
    if impl == "sdpa" or (impl == "auto" and sdpa is not None):
        if sdpa is None:
            raise RuntimeError("torch %s has no scaled_dot_product_attention" % torch.__version__)
        return sdpa(q, k, v)
    return MemoryEfficientAttention.apply(q, k, v, ATTENTION["chunk"])


def has_fused_attention():
    return hasattr(F, "scaled_dot_product_attention")


class MLP(nn.Module):
    """gelu: Linear, GELU(tanh), Linear (FLUX, SD3, Qwen-Image, Wan). swiglu: one Linear to gate and up,
    SiLU(gate)·up, Linear down (FLUX.2, Z-Image); `inner` is the gate/up width."""

    def __init__(self, dim, inner, kind, prec, rank):
        super().__init__()
        self.kind = kind
        bias = kind == "gelu"
        self.fc1 = LoRALinear(dim, inner * (2 if kind == "swiglu" else 1), prec, rank, bias=bias)
        self.fc2 = LoRALinear(inner, dim, prec, rank, bias=bias)

    def forward(self, x):
        h = self.fc1(x)
        if self.kind == "swiglu":
            gate, up = h.chunk(2, dim=-1)
            return self.fc2(F.silu(gate) * up)
        return self.fc2(F.gelu(h, approximate="tanh"))


def count_params(module):
    """(frozen base parameters, trainable LoRA parameters)."""
    base = sum(p.numel() for p in module.parameters() if not p.requires_grad)
    lora = sum(p.numel() for p in module.parameters() if p.requires_grad)
    return base, lora


def lora_parameters(module):
    return [p for p in module.parameters() if p.requires_grad]
