#!/usr/bin/env python3
"""Plain attention's score matrices, on the CPU, for the estimate's plainAttentionBytes (core/systems/aitk/estimate.cpp):
sd-scripts' U-Net attention without --xformers, --sdpa or --mem_eff_attn (library/original_unet.py and
sdxl_original_unet.py CrossAttention._attention: baddbmm, softmax, bmm), one self-attention layer over N tokens.

  saved       what autograd keeps for backward beyond q, k and v (saved_tensors_hooks, deduplicated by storage):
              the softmax's output, one score matrix (heads × N × N) per layer; the model keeps it in every layer
              without checkpointing
  backward    the profiler's peak of live bytes over the layer's backward, above what lived before it (the saved
              matrix among it): the grads of the probabilities and of the scores; with the saved one, the 3 matrices
              the model takes for the recomputed layer under checkpointing (2 beside every layer's saved one without)
  inference   the profiler's peak over a forward under no_grad: scores and softmax together; the model takes 2

Each as a multiple of one score matrix (heads × N × N × the element's bytes), bf16, batch 1.

  /usr/bin/python3 scripts/census/plain_attention.py [--tokens 256,576,1024] [--heads 8]   # tests/census/plain-attention.json
"""

import sys

sys.dont_write_bytecode = True

import argparse  # noqa: E402
import json  # noqa: E402

import torch  # noqa: E402

import census  # noqa: E402  (the script's own folder is on the path)

census.torch = torch  # its SavedSet reads the module it is given at the census's own start
census.use_layers()


def attention(q, k, v, scale):
    """sd-scripts' CrossAttention._attention, heads folded into the batch as it does (upcast_attention off)."""
    scores = torch.baddbmm(torch.empty(q.shape[0], q.shape[1], k.shape[1], dtype=q.dtype), q, k.transpose(-1, -2), beta=0, alpha=scale)
    probs = scores.softmax(dim=-1).to(v.dtype)
    return torch.bmm(probs, v)


def measure(tokens, heads, head_dim=40, dtype=torch.bfloat16):
    torch.manual_seed(0)
    q, k, v = (torch.randn(heads, tokens, head_dim, dtype=dtype, requires_grad=True) for _ in range(3))
    matrix = heads * tokens * tokens * torch.finfo(dtype).bits // 8
    with census.SavedSet(torch.nn.Identity(), census.ptrs(q, k, v)) as saved:
        out = attention(q, k, v, head_dim ** -0.5)
    grad = torch.randn_like(out)
    backward, _ = census.profiled(lambda: out.backward(grad))
    inference = census.inference_timeline(lambda: attention(q, k, v, head_dim ** -0.5))
    return {"tokens": tokens, "heads": heads, "score_matrix_bytes": matrix, "saved_matrices": round(saved.total() / matrix, 3),
            "backward_peak_matrices": round(backward.peak / matrix, 3), "inference_peak_matrices": round(inference.peak / matrix, 3)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", default="256,576,1024")
    ap.add_argument("--heads", type=int, default=8)
    args = ap.parse_args()
    rows = [measure(int(n), args.heads) for n in args.tokens.split(",")]
    json.dump({"model": {"saved_matrices": 1, "backward_peak_matrices": 2, "inference_peak_matrices": 2}, "runs": rows},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
