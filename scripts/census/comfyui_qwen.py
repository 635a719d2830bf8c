"""ComfyUI's own Qwen-Image block in inference, measured as scripts/census/comfyui_flux.py measures its FLUX blocks: the
profiler's peak of live bytes over one block's forward without autograd (its inputs counted, the attention kernel's
tiles left out), at a few image token counts beside 512 text tokens, its slope per image token per hidden channel. The
block is ComfyUI's at edee33f (2026-01-06, the release whose memory manager the estimate follows; read in the
PhoenixCreation/ComfyUI-TPU mirror of upstream): comfy/ldm/qwen_image/model.py QwenImageTransformerBlock (no
timestep-zero reference) with its Attention, which projects q, k and v of each stream apart (each made contiguous in
the heads' layout, all six alive until the attention returns, as its locals are), RMS-normalises q and k
(comfy/rmsnorm.py's fallback form: torch 1.13 has no F.rms_norm), concatenates the streams, ropes the joint q and k
with comfy/ldm/flux/math.py apply_rope1 in its fallback form (fp32 rotation; comfy-kitchen's fused kernel, where it
loads, keeps less) and calls attention_pytorch with the heads already split; the tanh-GELU FFN (ratio 4) and the
`del`s of rattus128's clean-up (1c7eaeca, Comfy-Org/ComfyUI#10725, 2025-11-13, which names the FFN as the peak).
Real head size (128), at a reduced width. The same block as ComfyUI ran it before that commit (1c7eaeca^: the normed
and modulated inputs and both attention outputs kept to the block's end) gives `older_blocks`, the range's top for a
workflow that names no later release. The current block's peak is the joint q's rotation (its fp32 copies beside
q, k and v of both streams), the older one's the image FFN's two hidden maps beside the kept locals.

  /usr/bin/python3 scripts/census/comfyui_qwen.py > tests/census/comfyui_qwen.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import (  # noqa: E402
    DTYPE, HEAD_DIM, RMSNorm, apply_rope1, command_line, linear, peak_row, rotations, slope, torch_version, write)

census.use_layers()

MLP_RATIO = 4
TEXT_TOKENS = 512  # the estimate's text context for Qwen-Image (Qwen2.5-VL's hidden states, template dropped)


def layer_norm(dim):
    return nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6, dtype=DTYPE)


class FeedForward(nn.Module):
    """FeedForward: GELU (its projection, then the activation into a new tensor), Dropout(0) (eval: the tensor
    itself), the output Linear."""

    def __init__(self, dim):
        super().__init__()
        self.proj = linear(dim, dim * MLP_RATIO)
        self.out = linear(dim * MLP_RATIO, dim)

    def forward(self, x):
        hidden = self.proj(x)
        hidden = F.gelu(hidden, approximate="tanh")
        return self.out(hidden)


class Attention(nn.Module):
    """Attention.forward, the same at edee33f and before 1c7eaeca."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm_q, self.norm_k = RMSNorm(HEAD_DIM), RMSNorm(HEAD_DIM)
        self.norm_added_q, self.norm_added_k = RMSNorm(HEAD_DIM), RMSNorm(HEAD_DIM)
        self.to_q, self.to_k, self.to_v = linear(dim, dim), linear(dim, dim), linear(dim, dim)
        self.add_q_proj, self.add_k_proj, self.add_v_proj = linear(dim, dim), linear(dim, dim), linear(dim, dim)
        self.to_out, self.to_add_out = linear(dim, dim), linear(dim, dim)

    def split(self, x, contiguous=True):
        b, s, _ = x.shape
        x = x.view(b, s, self.heads, -1).transpose(1, 2)
        return x.contiguous() if contiguous else x

    def forward(self, hidden_states, encoder_hidden_states, pe):
        seq_txt = encoder_hidden_states.shape[1]
        img_query = self.split(self.to_q(hidden_states))
        img_key = self.split(self.to_k(hidden_states))
        img_value = self.split(self.to_v(hidden_states), contiguous=False)
        txt_query = self.split(self.add_q_proj(encoder_hidden_states))
        txt_key = self.split(self.add_k_proj(encoder_hidden_states))
        txt_value = self.split(self.add_v_proj(encoder_hidden_states), contiguous=False)
        img_query, img_key = self.norm_q(img_query), self.norm_k(img_key)
        txt_query, txt_key = self.norm_added_q(txt_query), self.norm_added_k(txt_key)
        joint_query = torch.cat([txt_query, img_query], dim=2)
        joint_key = torch.cat([txt_key, img_key], dim=2)
        joint_value = torch.cat([txt_value, img_value], dim=2)
        joint_query = apply_rope1(joint_query, pe)
        joint_key = apply_rope1(joint_key, pe)
        b, heads, _, d = joint_query.shape
        joint = layers.attention(joint_query, joint_key, joint_value).transpose(1, 2).reshape(b, -1, heads * d)
        txt_attn_output, img_attn_output = joint[:, :seq_txt], joint[:, seq_txt:]
        return self.to_out(img_attn_output), self.to_add_out(txt_attn_output)


class Block(nn.Module):
    """QwenImageTransformerBlock.forward at edee33f; with `older`, before 1c7eaeca (#10725)."""

    def __init__(self, dim, heads, older=False):
        super().__init__()
        self.older = older
        self.img_mod, self.txt_mod = linear(dim, 6 * dim), linear(dim, 6 * dim)
        self.img_norm1, self.img_norm2 = layer_norm(dim), layer_norm(dim)
        self.txt_norm1, self.txt_norm2 = layer_norm(dim), layer_norm(dim)
        self.img_mlp, self.txt_mlp = FeedForward(dim), FeedForward(dim)
        self.attn = Attention(dim, heads)

    @staticmethod
    def modulate(x, mod_params):
        shift, scale, gate = torch.chunk(mod_params, 3, dim=-1)
        return torch.addcmul(shift.unsqueeze(1), x, 1 + scale.unsqueeze(1)), gate.unsqueeze(1)

    def forward(self, hidden_states, encoder_hidden_states, temb, pe):
        img_mod1, img_mod2 = self.img_mod(F.silu(temb)).chunk(2, dim=-1)
        txt_mod1, txt_mod2 = self.txt_mod(F.silu(temb)).chunk(2, dim=-1)
        if self.older:
            return self.older_forward(hidden_states, encoder_hidden_states, pe, img_mod1, img_mod2, txt_mod1, txt_mod2)
        img_modulated, img_gate1 = self.modulate(self.img_norm1(hidden_states), img_mod1)
        txt_modulated, txt_gate1 = self.modulate(self.txt_norm1(encoder_hidden_states), txt_mod1)
        img_attn_output, txt_attn_output = self.attn(img_modulated, txt_modulated, pe)
        del img_modulated, txt_modulated
        hidden_states = torch.addcmul(hidden_states, img_gate1, img_attn_output)
        encoder_hidden_states = encoder_hidden_states + txt_gate1 * txt_attn_output
        del img_attn_output, txt_attn_output
        img_modulated2, img_gate2 = self.modulate(self.img_norm2(hidden_states), img_mod2)
        hidden_states = torch.addcmul(hidden_states, img_gate2, self.img_mlp(img_modulated2))
        txt_modulated2, txt_gate2 = self.modulate(self.txt_norm2(encoder_hidden_states), txt_mod2)
        encoder_hidden_states = torch.addcmul(encoder_hidden_states, txt_gate2, self.txt_mlp(txt_modulated2))
        return encoder_hidden_states, hidden_states

    def older_forward(self, hidden_states, encoder_hidden_states, pe, img_mod1, img_mod2, txt_mod1, txt_mod2):
        """Every local kept to the return, as the block's frame kept them before the clean-up."""
        img_normed = self.img_norm1(hidden_states)
        img_modulated, img_gate1 = self.modulate(img_normed, img_mod1)
        txt_normed = self.txt_norm1(encoder_hidden_states)
        txt_modulated, txt_gate1 = self.modulate(txt_normed, txt_mod1)
        img_attn_output, txt_attn_output = self.attn(img_modulated, txt_modulated, pe)
        hidden_states = hidden_states + img_gate1 * img_attn_output
        encoder_hidden_states = encoder_hidden_states + txt_gate1 * txt_attn_output
        img_normed2 = self.img_norm2(hidden_states)
        img_modulated2, img_gate2 = self.modulate(img_normed2, img_mod2)
        hidden_states = torch.addcmul(hidden_states, img_gate2, self.img_mlp(img_modulated2))
        txt_normed2 = self.txt_norm2(encoder_hidden_states)
        txt_modulated2, txt_gate2 = self.modulate(txt_normed2, txt_mod2)
        encoder_hidden_states = torch.addcmul(encoder_hidden_states, txt_gate2, self.txt_mlp(txt_modulated2))
        kept = [img_normed, img_modulated, txt_normed, txt_modulated, img_attn_output, txt_attn_output, img_normed2, txt_normed2]
        del kept
        return encoder_hidden_states, hidden_states


def measure(width, image_tokens, older=False):
    heads = width // HEAD_DIM
    block = Block(width, heads, older).eval()
    block.requires_grad_(False)
    rows = []
    for n in image_tokens:
        total = n + TEXT_TOKENS
        temb = torch.randn(1, width, dtype=DTYPE)
        pe = rotations(total)[None, None]  # (1, 1, S, ...) as EmbedND lays it out
        img, txt = torch.randn(1, n, width, dtype=DTYPE), torch.randn(1, TEXT_TOKENS, width, dtype=DTYPE)
        rows.append(peak_row(total, lambda: block(img, txt, temb, pe), img, txt))
    return slope(rows, width)


def main(argv=None):
    # From 1024² up (Qwen-Image's 1328² is 6889 tokens): below about 4600 image tokens beside the 512 text tokens the
    # older block's peak is its attention (28 B per joint token), above it its image FFN (30 per image token).
    width, tokens = command_line(argv, 768, "6144,8192,10240", TEXT_TOKENS)
    block = measure(width, tokens)
    older = measure(width, tokens, older=True)
    result = {"source": "ComfyUI edee33f (and 1c7eaeca^, before #10725) comfy/ldm/qwen_image/model.py QwenImageTransformerBlock, "
                        "inference, bf16, torch %s CPU" % torch_version(),
              "width": width, "block": block, "older_block": older,
              "families": {"qwen_image": {"bytes_per_token_channel": block["bytes_per_token_channel"],
                                          "older_bytes_per_token_channel": older["bytes_per_token_channel"]}}}
    write(result)


if __name__ == "__main__":
    main()
