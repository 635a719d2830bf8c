"""ComfyUI's own SD3 / SD3.5 joint block in inference, measured as scripts/census/comfyui_qwen.py measures its
Qwen-Image block: the profiler's peak of live bytes over one block's forward without autograd (its inputs counted, the
attention kernel's tiles left out), at a few image token counts beside 333 text tokens (77 CLIP + 256 T5), its slope per
image token per hidden channel. The block is ComfyUI's at edee33f (2026-01-06; read in the PhoenixCreation/ComfyUI-TPU
mirror of upstream): comfy/ldm/modules/diffusionmodules/mmdit.py `_block_mixing` over two DismantledBlocks (context
and x), as SD3.5 Large has them (qk_norm "rms", no second x self-attention): each stream's pre_attention (norm1,
modulate, one qkv Linear split into views, q and k RMS-normalised per 64-wide head; v stays a view of the qkv map), the
streams' q, k and v concatenated, attention_pytorch, then each stream's post_attention (the gated projection added out
of place, norm2, modulate, the tanh-GELU MLP at 4×). `_block_mixing` keeps every stream's qkv, the joint q, k, v and the
attention output as locals to its return, so the x stream's MLP runs beside all of them.
Real head size (64), at a reduced width.

  /usr/bin/python3 scripts/census/comfyui_sd3.py > tests/census/comfyui_sd3.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import DTYPE, command_line, linear, peak_row, rms_norm, slope, torch_version, write  # noqa: E402

census.use_layers()

SD3_HEAD_DIM = 64
MLP_RATIO = 4
TEXT_TOKENS = 333


def modulate(x, shift, scale):
    return torch.addcmul(shift.unsqueeze(1), x, 1 + scale.unsqueeze(1))


class Stream(nn.Module):
    """A DismantledBlock: adaLN of six, norm1 / norm2 (LayerNorm without affine), the attention's qkv and proj, the MLP."""

    def __init__(self, dim):
        super().__init__()
        self.adaLN_modulation = linear(dim, 6 * dim)
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6, dtype=DTYPE)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6, dtype=DTYPE)
        self.qkv, self.proj = linear(dim, 3 * dim), linear(dim, dim)
        self.ln_q = nn.Parameter(torch.ones(SD3_HEAD_DIM, dtype=DTYPE))
        self.ln_k = nn.Parameter(torch.ones(SD3_HEAD_DIM, dtype=DTYPE))
        self.fc1, self.fc2 = linear(dim, dim * MLP_RATIO), linear(dim * MLP_RATIO, dim)

    def pre_attention(self, x, c):
        shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = self.adaLN_modulation(F.silu(c)).chunk(6, dim=1)
        qkv = self.qkv(modulate(self.norm1(x), shift_msa, scale_msa))
        q, k, v = qkv.reshape(qkv.shape[0], qkv.shape[1], 3, -1, SD3_HEAD_DIM).movedim(2, 0)  # split_qkv: views
        q = rms_norm(q, self.ln_q).reshape(q.shape[0], q.shape[1], -1)
        k = rms_norm(k, self.ln_k).reshape(q.shape[0], q.shape[1], -1)
        return (q, k, v), (x, gate_msa, shift_mlp, scale_mlp, gate_mlp)

    def post_attention(self, attn, x, gate_msa, shift_mlp, scale_mlp, gate_mlp):
        x = x + gate_msa.unsqueeze(1) * self.proj(attn)
        return x + gate_mlp.unsqueeze(1) * self.fc2(F.gelu(self.fc1(modulate(self.norm2(x), shift_mlp, scale_mlp)), approximate="tanh"))


class JointBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.heads = dim // SD3_HEAD_DIM
        self.context_block, self.x_block = Stream(dim), Stream(dim)

    def forward(self, context, x, c):
        context_qkv, context_intermediates = self.context_block.pre_attention(context, c)
        x_qkv, x_intermediates = self.x_block.pre_attention(x, c)
        qkv = tuple(torch.cat((context_qkv[t], x_qkv[t]), dim=1) for t in range(3))
        b = qkv[0].shape[0]
        q, k, v = (t.reshape(b, -1, self.heads, SD3_HEAD_DIM).transpose(1, 2) for t in qkv)  # attention_pytorch's views
        attn = layers.attention(q, k, v).transpose(1, 2).reshape(b, -1, self.heads * SD3_HEAD_DIM)
        del q, k, v
        context_attn, x_attn = attn[:, : context.shape[1]], attn[:, context.shape[1]:]
        context = self.context_block.post_attention(context_attn, *context_intermediates)
        x = self.x_block.post_attention(x_attn, *x_intermediates)
        kept = [context_qkv, x_qkv, qkv, attn]  # _block_mixing's locals, alive to its return
        del kept
        return context, x


def measure(width, image_tokens):
    block = JointBlock(width).eval()
    block.requires_grad_(False)
    rows = []
    for n in image_tokens:
        c = torch.randn(1, width, dtype=DTYPE)
        context, x = torch.randn(1, TEXT_TOKENS, width, dtype=DTYPE), torch.randn(1, n, width, dtype=DTYPE)
        rows.append(peak_row(n + TEXT_TOKENS, lambda: block(context, x, c), context, x))
    return slope(rows, width)


def main(argv=None):
    width, tokens = command_line(argv, 768, "2048,4096,6144", TEXT_TOKENS)
    block = measure(width, tokens)
    result = {"source": "ComfyUI edee33f comfy/ldm/modules/diffusionmodules/mmdit.py _block_mixing (SD3.5 Large's blocks), "
                        "inference, bf16, torch %s CPU" % torch_version(),
              "width": width, "block": block, "families": {"mmdit": {"bytes_per_token_channel": block["bytes_per_token_channel"]}}}
    write(result)


if __name__ == "__main__":
    main()
