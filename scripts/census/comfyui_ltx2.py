"""ComfyUI's own LTX-2 (audio-video) block in inference, measured as scripts/census/comfyui_wan.py measures its Wan
block: the profiler's peak of live bytes over one block's forward without autograd (the block's inputs counted, the
rotary tables and timestep embeddings among them; the attention kernel's tiles left out), at a few video token counts
with the audio tokens that go with them, its slope per video token per video channel. The block is ComfyUI's at
0f1fa67a (2026-08-15, the newest upstream commit in the PhoenixCreation/ComfyUI-TPU mirror, after v0.33.0):
comfy/ldm/lightricks/av_model.py BasicAVTransformerBlock with comfy/ldm/lightricks/model.py CrossAttention (q and k
RMS-normalised across all heads, split-half rope: LTX-2's checkpoint config names rope_type "split") and FeedForward
(tanh-GELU, ratio 4), av_model.py's per-frame CompressedTimestep, and the comfy-kitchen ops the block calls in
inference (rms_adaln, apply_rope_split_half[1]) in comfy-kitchen 0.2.31's eager forms, which run wherever its CUDA
kernels do not load (torch below cu130; its fused kernels keep less, but not at the peak). comfy/rmsnorm.py's
F.rms_norm is taken in comfy_ops' bf16 fallback form (torch 1.13 has none). Real head sizes (video 128, audio 64), at
a reduced width, the audio stream half the video's (2048 / 4096) with as many heads; the figure does not move with
the width (512 and 1024 agree).

The rotary tables are built once per step in the compute dtype and alive through every block: since 7c59a078 a
(cos, -sin, sin, cos) matrix per token, head and frequency, 4 B per video token·channel for the self-attention's and
2 for the audio<->video cross-attention's (audio head size), against 2 and 1 for the older (cos, sin) pair.

Audio: 25 latents a second (16 kHz, hop 160, ×4: audio_vae.latents_per_second), one token each, against 25/8 latent
video frames a second at 25 fps: about 8 audio tokens per latent frame, beside frames of 384 video tokens (768×512 /
32²). The audio stream then adds ~0.35 B per video token·channel with a per-token timestep (its AdaLN embeddings are
per audio token), ~0.1 without (its residual, rotary tables and kept norm); at 1280×704 (880 a frame) under half
that. Text: Gemma's context padded to 1024 tokens (cross-attention only: the intercept).

Timesteps: with no noise mask (plain text-to-video) every AdaLN value is one row that broadcasts (`scalar_timestep`);
with one (image-to-video, guides: any LTXVConcatAVLatent with a mask) the timestep is per token (`per_token_timestep`)
and since fd5c0755 ComfyUI keeps it per latent frame, expanding each shift, scale or gate to a (tokens, width) tensor
when the block asks for it.

The current block's peak is its video FFN: the normalised input, both (tokens, 4·width) hidden maps (since 15989f87
comfy.ops.linear_input_act holds the projection, its argument, while its GELU feeds the output Linear: its fused
path is for INT8 weights only) and the output, beside the residual and the rotary tables; next comes the self-
attention's k rope (q, k, v, roped q and the eager rope's three temporaries beside the normalised input), 4 B lower.
The same block as ComfyUI ran it before give `older_blocks`, each under the first release with it: 7c59a078 (#15056,
v0.29.0: kitchen rope and its rotary matrix, the FFN still nn.Sequential, which frees the projection after the GELU),
55bd606e (#12046, v0.11.0: the `del`s; (cos, sin) tables and apply_split_rotary_emb; vx normalised once for both
audio<->video cross-attentions and kept through them), fd5c0755 (#11829, v0.9.0: timesteps per frame) and f2b00237
(2026-01-04, first in v0.8.0 and the form at edee33f, the release whose memory manager the estimate follows: no
`del`s, the self-attention's normalised input and the audio<->video norm kept to the block's end, each stage's
shift, scale and gate one (tokens, 3, width) sum, and with a noise mask the per-token timestep embeddings, 22 B per
token·channel, held uncompressed through every block; the model's own per-token output embedding, 2 more, is not a
block input and is left out).

  /usr/bin/python3 scripts/census/comfyui_ltx2.py > tests/census/comfyui_ltx2.json
"""

import sys

sys.dont_write_bytecode = True


import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path; census puts scripts/gpu there)
import layers  # noqa: E402
from comfy_ops import (  # noqa: E402
    DTYPE, HEAD_DIM, RMSNorm, command_line, linear, peak_row, slope, torch_version, write)

census.use_layers()

AUDIO_HEAD_DIM = 64
MLP_RATIO = 4
TEXT_TOKENS = 1024      # comfy/text_encoders/lt.py: Gemma's min_length; the connector's registers fill it
FRAME_TOKENS = 384      # a latent frame at 768×512 (the VAE's 32× spatial)
AUDIO_PER_FRAME = 8     # 25 audio tokens a second over 25/8 latent frames a second


class Form:
    """The block as a range of releases ran it: the commit that made it, and which later changes it has."""

    def __init__(self, releases, commit, compressed, dels, rope_matrix, fused):
        self.releases, self.commit = releases, commit
        self.compressed = compressed    # fd5c0755 (#11829): per-token timestep embeddings kept per latent frame
        self.dels = dels                # 55bd606e (#12046): the `del`s, gates fetched after their attention
        self.rope_matrix = rope_matrix  # 7c59a078 (#15056): rotary matrix, kitchen rope, q and k roped together
        self.fused = fused              # 15989f87 (#15138): rms_adaln per use, linear_input_act FFN


CURRENT = Form("v0.31.0-", "0f1fa67a", True, True, True, True)
OLDER = (Form("v0.29.0-v0.30.x", "7c59a078", True, True, True, False),
         Form("v0.11.0-v0.28.x", "55bd606e", True, True, False, False),
         Form("v0.9.0-v0.10.x", "fd5c0755", True, False, False, False),
         Form("v0.8.0-v0.8.x", "f2b00237", False, False, False, False))  # also edee33f5's


def rms(x, eps=1e-6):
    """comfy.rmsnorm.rms_norm without a weight (F.rms_norm's bf16 fallback form, as comfy_ops.rms_norm)."""
    return x * torch.rsqrt(torch.mean(x**2, dim=-1, keepdim=True) + eps)


def rms_adaln(x, scale, shift):
    """comfy-kitchen's eager rms_adaln: F.rms_norm(x) * (1 + scale) + shift, the same ops as the code it replaced."""
    return rms(x) * (1 + scale) + shift


def rope_split_half1(x, freqs_cis):
    """comfy-kitchen's eager apply_rope_split_half1 on (b, s, heads, d) against the (b, s, heads, d/2, 2, 2) matrix."""
    t_ = x.reshape(*x.shape[:-1], 2, -1).movedim(-2, -1).unsqueeze(-2).to(freqs_cis.dtype)
    t_out = freqs_cis[..., 0] * t_[..., 0] + freqs_cis[..., 1] * t_[..., 1]
    return t_out.movedim(-1, -2).reshape(*x.shape).type_as(x)


def apply_rotary_emb(x, pe):
    """model.py apply_rotary_emb: since 7c59a078 the kitchen rope on the heads' view; before 7c59a078
    apply_split_rotary_emb on the (cos, sin) pair, (b, heads, s, d/2) views of (b, s, heads, d/2) storage."""
    if len(pe) == 2:
        rotation, _ = pe
        return rope_split_half1(x.reshape(x.shape[0], x.shape[1], rotation.shape[2], -1), rotation).reshape(x.shape)
    cos, sin, _ = pe
    b, h, t, _ = cos.shape
    split_input = x.reshape(b, t, h, -1).swapaxes(1, 2)
    split_input = split_input.reshape(*split_input.shape[:-1], 2, -1)  # rearrange "... (d r) -> ... d r", d=2
    first_half_input, second_half_input = split_input[..., :1, :], split_input[..., 1:, :]
    output = split_input * cos.unsqueeze(-2)
    output[..., :1, :].addcmul_(-sin.unsqueeze(-2), second_half_input)
    output[..., 1:, :].addcmul_(sin.unsqueeze(-2), first_half_input)
    output = output.reshape(*output.shape[:-2], -1)
    return output.swapaxes(1, 2).reshape(b, t, -1)


def apply_rotary_emb_qk(q, k, pe):
    """Since 7c59a078 the self-attention path: kitchen apply_rope_split_half, whose eager form ropes q, then k."""
    rotation, _ = pe
    q_shape, k_shape = q.shape, k.shape
    q = q.reshape(q.shape[0], q.shape[1], rotation.shape[2], -1)
    k = k.reshape(k.shape[0], k.shape[1], rotation.shape[2], -1)
    q, k = rope_split_half1(q, rotation), rope_split_half1(k, rotation)
    return q.reshape(q_shape), k.reshape(k_shape)


def attention(q, k, v, heads):
    """attention_pytorch: (b, s, heads·d) views to (b, heads, s, d); SDPA (the memory-efficient emulation on
    torch 1.13, its output laid out (b, s, heads, d) as the fused kernels' is); heads merged back."""
    b, _, inner = q.shape
    d = inner // heads
    q, k, v = (t.view(b, -1, heads, d).transpose(1, 2) for t in (q, k, v))
    return layers.attention(q, k, v).transpose(1, 2).reshape(b, -1, heads * d)


class CrossAttention(nn.Module):
    """model.py CrossAttention (no gated attention, no STG): q, k and v alive through the norms and the rope."""

    def __init__(self, query_dim, context_dim, heads, dim_head, rope_matrix):
        super().__init__()
        inner = heads * dim_head
        self.heads, self.rope_matrix = heads, rope_matrix
        self.q_norm, self.k_norm = RMSNorm(inner), RMSNorm(inner)
        self.to_q = linear(query_dim, inner)
        self.to_k, self.to_v = linear(context_dim, inner), linear(context_dim, inner)
        self.to_out = linear(inner, query_dim)

    def forward(self, x, context=None, pe=None, k_pe=None):
        q = self.to_q(x)
        context = x if context is None else context
        k = self.to_k(context)
        v = self.to_v(context)
        q = self.q_norm(q)
        k = self.k_norm(k)
        if pe is not None:
            if self.rope_matrix and k_pe is None and q.shape == k.shape:
                q, k = apply_rotary_emb_qk(q, k, pe)
            else:
                q = apply_rotary_emb(q, pe)
                k = apply_rotary_emb(k, pe if k_pe is None else k_pe)
        return self.to_out(attention(q, k, v, self.heads))


class FeedForward(nn.Module):
    """Since 15989f87 (v0.31.0) linear_input_act(net[2], proj(x), "gelu_tanh"): on its eager path the projection is
    the call's argument, alive while its GELU feeds the output Linear; before, nn.Sequential freed it after the GELU."""

    def __init__(self, dim, fused):
        super().__init__()
        self.fused = fused
        self.proj, self.out = linear(dim, dim * MLP_RATIO), linear(dim * MLP_RATIO, dim)

    def forward(self, x):
        if self.fused:
            return self.linear_input_act(self.proj(x))
        return self.out(F.gelu(self.proj(x), approximate="tanh"))

    def linear_input_act(self, x):
        return self.out(F.gelu(x, approximate="tanh"))


class CompressedTimestep:
    """av_model.py CompressedTimestep: one row per latent frame, each AdaLN value expanded to every token on use."""

    def __init__(self, data, patches_per_frame):
        self.data, self.patches_per_frame = data, patches_per_frame

    def expand_for_computation(self, table, batch_size, indices):
        frames = self.data.shape[1]
        frame_reshaped = self.data.reshape(batch_size, frames, table.shape[0], -1)[:, :, indices, :]
        frame_ada = (table[indices].unsqueeze(0).unsqueeze(0).to(dtype=self.data.dtype) + frame_reshaped).unbind(dim=2)
        return tuple(v.unsqueeze(2).expand(batch_size, frames, self.patches_per_frame, -1)
                     .reshape(batch_size, -1, v.shape[-1]) for v in frame_ada)


def get_ada_values(table, timestep, indices=slice(None, None)):
    if isinstance(timestep, CompressedTimestep):
        return timestep.expand_for_computation(table, 1, indices)
    return (table[indices].unsqueeze(0).unsqueeze(0).to(dtype=timestep.dtype)
            + timestep.reshape(1, timestep.shape[1], table.shape[0], -1)[:, :, indices, :]).unbind(dim=2)


def gated_residual(x, module, table, timestep, first):
    """x += module(rms_adaln(x, scale, shift)) * gate in place, the shift and scale at `first` in the table and the gate
    after them, each freed where 55bd606e's `del`s free it (the gate and the output when this returns, right after the
    add). Upstream writes the audio stream's norm inline: the same ops as rms_adaln."""
    shift, scale = get_ada_values(table, timestep, slice(first, first + 2))
    normed = rms_adaln(x, scale, shift)
    del shift, scale
    out = module(normed)
    del normed
    gate = get_ada_values(table, timestep, slice(first + 2, first + 3))[0]
    x.addcmul_(out, gate)


class Block(nn.Module):
    """BasicAVTransformerBlock.forward (LTX-2: no cross-attention AdaLN, no gated attention) in a Form."""

    def __init__(self, v_dim, heads, form):
        super().__init__()
        a_dim = heads * AUDIO_HEAD_DIM
        self.form = form

        def attn(query_dim, context_dim, dim_head):
            return CrossAttention(query_dim, context_dim, heads, dim_head, form.rope_matrix)

        self.attn1, self.audio_attn1 = attn(v_dim, v_dim, HEAD_DIM), attn(a_dim, a_dim, AUDIO_HEAD_DIM)
        self.attn2 = attn(v_dim, v_dim, HEAD_DIM)  # the text context is cross_attention_dim = v_dim wide
        self.audio_attn2 = attn(a_dim, a_dim, AUDIO_HEAD_DIM)
        self.audio_to_video_attn = attn(v_dim, a_dim, AUDIO_HEAD_DIM)
        self.video_to_audio_attn = attn(a_dim, v_dim, AUDIO_HEAD_DIM)
        self.ff, self.audio_ff = FeedForward(v_dim, form.fused), FeedForward(a_dim, form.fused)
        self.scale_shift_table = nn.Parameter(torch.randn(6, v_dim, dtype=DTYPE))
        self.audio_scale_shift_table = nn.Parameter(torch.randn(6, a_dim, dtype=DTYPE))
        self.scale_shift_table_a2v_ca_audio = nn.Parameter(torch.randn(5, a_dim, dtype=DTYPE))
        self.scale_shift_table_a2v_ca_video = nn.Parameter(torch.randn(5, v_dim, dtype=DTYPE))

    def forward(self, vx, ax, v_context, a_context, v_timestep, a_timestep, v_pe, a_pe, v_cross_pe, a_cross_pe,
                v_cross_ss, a_cross_ss, v_cross_gate, a_cross_gate):
        if not self.form.dels:
            return self.forward_f2b(vx, ax, v_context, a_context, v_timestep, a_timestep, v_pe, a_pe, v_cross_pe,
                                    a_cross_pe, v_cross_ss, a_cross_ss, v_cross_gate, a_cross_gate)
        table, a_table = self.scale_shift_table, self.audio_scale_shift_table
        # video self-attention, then text cross-attention (55bd606e's `del`s)
        gated_residual(vx, lambda n: self.attn1(n, pe=v_pe), table, v_timestep, 0)
        vx.add_(self.attn2(rms(vx), context=v_context))
        # audio self-attention, then text cross-attention
        gated_residual(ax, lambda n: self.audio_attn1(n, pe=a_pe), a_table, a_timestep, 0)
        ax.add_(self.audio_attn2(rms(ax), context=a_context))
        # audio -> video, then video -> audio; before 15989f87 vx normalised once for both and kept through them
        vx_norm3 = None if self.form.fused else rms(vx)
        ax_norm3 = rms(ax)  # never deleted at 0f1fa67a: alive to the block's end

        def video_scaled(scale, shift):
            return rms_adaln(vx, scale, shift) if vx_norm3 is None else vx_norm3 * (1 + scale) + shift

        ca_audio, ca_video = self.scale_shift_table_a2v_ca_audio, self.scale_shift_table_a2v_ca_video
        scale_a, shift_a = get_ada_values(ca_audio[:4, :], a_cross_ss)[:2]
        scale_v, shift_v = get_ada_values(ca_video[:4, :], v_cross_ss)[:2]
        vx_scaled = video_scaled(scale_v, shift_v)
        ax_scaled = ax_norm3 * (1 + scale_a) + shift_a
        del scale_v, shift_v, scale_a, shift_a
        a2v_out = self.audio_to_video_attn(vx_scaled, context=ax_scaled, pe=v_cross_pe, k_pe=a_cross_pe)
        del vx_scaled, ax_scaled
        gate_out_a2v = get_ada_values(ca_video[4:, :], v_cross_gate)[0]
        vx.addcmul_(a2v_out, gate_out_a2v)
        del gate_out_a2v, a2v_out
        scale_a, shift_a = get_ada_values(ca_audio[:4, :], a_cross_ss)[2:4]
        scale_v, shift_v = get_ada_values(ca_video[:4, :], v_cross_ss)[2:4]
        ax_scaled = ax_norm3 * (1 + scale_a) + shift_a
        vx_scaled = video_scaled(scale_v, shift_v)
        del scale_v, shift_v, scale_a, shift_a
        v2a_out = self.video_to_audio_attn(ax_scaled, context=vx_scaled, pe=a_cross_pe, k_pe=v_cross_pe)
        del ax_scaled, vx_scaled
        gate_out_v2a = get_ada_values(ca_audio[4:, :], a_cross_gate)[0]
        ax.addcmul_(v2a_out, gate_out_v2a)
        del gate_out_v2a, v2a_out
        if not self.form.fused:
            del vx_norm3, ax_norm3
        # the video FFN, then the audio's
        gated_residual(vx, self.ff, table, v_timestep, 3)
        gated_residual(ax, self.audio_ff, a_table, a_timestep, 3)
        return vx, ax

    def forward_f2b(self, vx, ax, v_context, a_context, v_timestep, a_timestep, v_pe, a_pe, v_cross_pe, a_cross_pe,
                    v_cross_ss, a_cross_ss, v_cross_gate, a_cross_gate):
        """f2b00237 (as at edee33f5; with fd5c0755 its timesteps compressed): no `del` of norm_vx, vx_norm3 or the
        scaled inputs; uncompressed, a stage's shift, scale and gate are views of one (tokens, 3, width) sum, the
        audio<->video ones of (tokens, 4, width) and (tokens, 1, width)."""
        table, a_table = self.scale_shift_table, self.audio_scale_shift_table
        vshift_msa, vscale_msa, vgate_msa = get_ada_values(table, v_timestep, slice(0, 3))
        norm_vx = rms(vx) * (1 + vscale_msa) + vshift_msa
        vx += self.attn1(norm_vx, pe=v_pe) * vgate_msa
        vx += self.attn2(rms(vx), context=v_context)
        del vshift_msa, vscale_msa, vgate_msa

        ashift_msa, ascale_msa, agate_msa = get_ada_values(a_table, a_timestep, slice(0, 3))
        norm_ax = rms(ax) * (1 + ascale_msa) + ashift_msa
        ax += self.audio_attn1(norm_ax, pe=a_pe) * agate_msa
        ax += self.audio_attn2(rms(ax), context=a_context)
        del ashift_msa, ascale_msa, agate_msa

        vx_norm3 = rms(vx)
        ax_norm3 = rms(ax)
        scale_a2v_a, shift_a2v_a, scale_v2a_a, shift_v2a_a, gate_out_v2a = self.av_ca_ada_values(
            self.scale_shift_table_a2v_ca_audio, a_cross_ss, a_cross_gate)
        scale_a2v_v, shift_a2v_v, scale_v2a_v, shift_v2a_v, gate_out_a2v = self.av_ca_ada_values(
            self.scale_shift_table_a2v_ca_video, v_cross_ss, v_cross_gate)
        vx_scaled = vx_norm3 * (1 + scale_a2v_v) + shift_a2v_v
        ax_scaled = ax_norm3 * (1 + scale_a2v_a) + shift_a2v_a
        vx += self.audio_to_video_attn(vx_scaled, context=ax_scaled, pe=v_cross_pe, k_pe=a_cross_pe) * gate_out_a2v
        del gate_out_a2v
        del scale_a2v_v, shift_a2v_v, scale_a2v_a, shift_a2v_a
        ax_scaled = ax_norm3 * (1 + scale_v2a_a) + shift_v2a_a
        vx_scaled = vx_norm3 * (1 + scale_v2a_v) + shift_v2a_v
        ax += self.video_to_audio_attn(ax_scaled, context=vx_scaled, pe=a_cross_pe, k_pe=v_cross_pe) * gate_out_v2a
        del gate_out_v2a
        del scale_v2a_v, shift_v2a_v, scale_v2a_a, shift_v2a_a

        vshift_mlp, vscale_mlp, vgate_mlp = get_ada_values(table, v_timestep, slice(3, None))
        vx_scaled = rms(vx) * (1 + vscale_mlp) + vshift_mlp
        vx += self.ff(vx_scaled) * vgate_mlp
        del vshift_mlp, vscale_mlp, vgate_mlp

        ashift_mlp, ascale_mlp, agate_mlp = get_ada_values(a_table, a_timestep, slice(3, None))
        ax_scaled = rms(ax) * (1 + ascale_mlp) + ashift_mlp
        ax += self.audio_ff(ax_scaled) * agate_mlp
        del ashift_mlp, ascale_mlp, agate_mlp
        kept = [norm_vx, norm_ax, vx_norm3, ax_norm3, vx_scaled, ax_scaled]  # the frame's locals, freed on return
        del kept
        return vx, ax

    @staticmethod
    def av_ca_ada_values(table, scale_shift_timestep, gate_timestep):
        scale_shift = [t.squeeze(2) for t in get_ada_values(table[:4, :], scale_shift_timestep)]
        gate = [t.squeeze(2) for t in get_ada_values(table[4:, :], gate_timestep)]
        return (*scale_shift, *gate)


def rotary(tokens, heads, head_dim, rope_matrix):
    """The rope embedder's output in the compute dtype: since 7c59a078 freqs_cis_matrix's (1, s, heads, d/2, 2, 2)
    stack, before it split_freqs_cis's (cos, sin), (1, heads, s, d/2) views of (1, s, heads, d/2) storage."""
    if rope_matrix:
        return torch.rand(1, tokens, heads, head_dim // 2, 2, 2).to(DTYPE), True
    cos, sin = (torch.rand(1, tokens, heads, head_dim // 2).swapaxes(1, 2).to(DTYPE) for _ in range(2))
    return cos, sin, True


def timestep(rows, width, params, frames, compressed):
    """An AdaLN embedding: one row (no noise mask), or per token, the video's kept per latent frame since fd5c0755."""
    if rows == 1:
        return torch.randn(1, 1, params * width, dtype=DTYPE)
    if frames and compressed:
        return CompressedTimestep(torch.randn(1, frames, params * width, dtype=DTYPE), rows // frames)
    return torch.randn(1, rows, params * width, dtype=DTYPE)


def storages(args):
    """The block's inputs as tensors: the rotary tuples opened, the compressed timesteps' per-frame rows."""
    for a in args:
        for t in a if isinstance(a, tuple) else (a,):
            if isinstance(t, CompressedTimestep):
                yield t.data
            elif torch.is_tensor(t):
                yield t


def measure(width, token_counts, form, per_token):
    heads = width // HEAD_DIM
    a_width = heads * AUDIO_HEAD_DIM
    block = Block(width, heads, form).eval()
    block.requires_grad_(False)
    rows = []
    for n in token_counts:
        frames = n // FRAME_TOKENS
        na = frames * AUDIO_PER_FRAME
        vrows, arows = (n, na) if per_token else (1, 1)
        vx, ax = torch.randn(1, n, width, dtype=DTYPE), torch.randn(1, na, a_width, dtype=DTYPE)
        v_context = torch.randn(1, TEXT_TOKENS, width, dtype=DTYPE)
        a_context = torch.randn(1, TEXT_TOKENS, a_width, dtype=DTYPE)
        # the rope embedder's tables: self-attention's at each stream's head size, audio<->video's at the audio's
        m = form.rope_matrix
        v_pe, a_pe = rotary(n, heads, HEAD_DIM, m), rotary(na, heads, AUDIO_HEAD_DIM, m)
        v_cross_pe, a_cross_pe = rotary(n, heads, AUDIO_HEAD_DIM, m), rotary(na, heads, AUDIO_HEAD_DIM, m)
        c = form.compressed
        v_ts = timestep(vrows, width, 6, frames, c)
        v_cross_ss, v_cross_gate = timestep(vrows, width, 4, frames, c), timestep(vrows, width, 1, frames, c)
        a_ts = timestep(arows, a_width, 6, 0, c)
        a_cross_ss, a_cross_gate = timestep(arows, a_width, 4, 0, c), timestep(arows, a_width, 1, 0, c)
        args = (vx, ax, v_context, a_context, v_ts, a_ts, v_pe, a_pe, v_cross_pe, a_cross_pe,
                v_cross_ss, a_cross_ss, v_cross_gate, a_cross_gate)
        rows.append(peak_row(n, lambda: block(*args), *storages(args)))
    return slope(rows, width)


def measure_form(width, token_counts, form):
    return {"releases": form.releases, "commit": form.commit,
            "per_token_timestep": measure(width, token_counts, form, True),
            "scalar_timestep": measure(width, token_counts, form, False)}


def figures(entry):
    return (entry["per_token_timestep"]["bytes_per_token_channel"], entry["scalar_timestep"]["bytes_per_token_channel"])


def main(argv=None):
    # 2, 4 and 6 latent frames: from 2 up the video FFN holds the peak (at 1, beside the 1024 text tokens, it does not)
    width, tokens = command_line(argv, 512, "768,1536,2304")  # video tokens; the audio tokens come with them
    if any(n % FRAME_TOKENS for n in tokens):
        raise SystemExit("--tokens: whole latent frames of %d tokens" % FRAME_TOKENS)
    block = measure_form(width, tokens, CURRENT)
    older = {form.releases: measure_form(width, tokens, form) for form in OLDER}
    oldest = figures(older[OLDER[-1].releases])
    result = {"source": "ComfyUI 0f1fa67a (and 7c59a078, 55bd606e, fd5c0755, f2b00237 as at edee33f5) "
                        "comfy/ldm/lightricks/av_model.py BasicAVTransformerBlock (LTX-2), comfy-kitchen 0.2.31 eager "
                        "ops, inference, bf16, torch %s CPU" % torch_version(),
              "width": width, "audio_width": width // HEAD_DIM * AUDIO_HEAD_DIM, "text_tokens": TEXT_TOKENS,
              "video_tokens_per_frame": FRAME_TOKENS, "audio_tokens_per_frame": AUDIO_PER_FRAME,
              "block": block, "older_blocks": older,
              "families": {"ltx2": {"bytes_per_token_channel": max(figures(block)),
                                    "scalar_timestep_bytes_per_token_channel": figures(block)[1],
                                    "older_bytes_per_token_channel": max(oldest),
                                    "older_scalar_timestep_bytes_per_token_channel": oldest[1]}}}
    write(result)


if __name__ == "__main__":
    main()
