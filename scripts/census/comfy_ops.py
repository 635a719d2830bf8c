"""The pieces ComfyUI's transformer blocks share, as comfyui_wan.py and comfyui_flux.py measure them: the compute
dtype, the head size, comfy/rmsnorm.py's RMSNorm and comfy/ldm/flux/math.py's rotary embedding."""

import torch

DTYPE = torch.bfloat16
HEAD_DIM = 128


def rms_norm(x, weight, eps=1e-6):
    """comfy/rmsnorm.py rms_norm without F.rms_norm (torch < 2.4)."""
    r = x * torch.rsqrt(torch.mean(x**2, dim=-1, keepdim=True) + eps)
    return r * weight


def apply_rope1(x, freqs_cis):
    """comfy/ldm/flux/math.py apply_rope1, the fallback without comfy-kitchen (fp32 rotation, cast back)."""
    x_ = x.to(dtype=freqs_cis.dtype).reshape(*x.shape[:-1], -1, 1, 2)
    x_out = freqs_cis[..., 0] * x_[..., 0]
    x_out.addcmul_(freqs_cis[..., 1], x_[..., 1])
    return x_out.reshape(*x.shape).type_as(x)


def rotations(tokens):
    """(S, d/2, 2, 2) fp32 rotation matrices, as the model's rope embedder gives every block (computed once, outside
    them); each model adds its own broadcast axes."""
    angles = torch.outer(torch.arange(tokens, dtype=torch.float32), torch.rand(HEAD_DIM // 2))
    cos, sin = angles.cos(), angles.sin()
    return torch.stack([cos, -sin, sin, cos], dim=-1).view(tokens, HEAD_DIM // 2, 2, 2)
