// The census's activation coefficients are the ones the estimator uses: scripts/census/coefficients.py
// derives them from the committed census runs (tests/census/results*.json) and GPU runs (tests/gpu/) and the compiled rules
// (build/release/core/rules/memory.json, rules/memory.yaml as JSON) must carry exactly those figures.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { sourceDir } from './helpers.mjs';

const python = process.env.PYTHON ?? 'python3';
const hasPython = !spawnSync(python, ['--version']).error;
const memoryJson = path.join(sourceDir, 'build/release/core/rules/memory.json');

test('memory.yaml activations are what the committed census derives', { skip: hasPython ? false : `${python} not found` }, () => {
  const r = spawnSync(python, [path.join(sourceDir, 'scripts/census/coefficients.py'), '--json'], {
    encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  const derived = JSON.parse(r.stdout);
  const activations = JSON.parse(fs.readFileSync(memoryJson, 'utf8')).activations;
  for (const [key, value] of Object.entries(derived.defaults)) {
    assert.equal(activations[key], value, `activations.${key}`);
  }
  const families = new Map(activations.families.map((f) => [f.family, f]));
  assert.deepEqual([...families.keys()].sort(), Object.keys(derived.families).sort());
  for (const [name, figures] of Object.entries(derived.families)) {
    for (const [key, value] of Object.entries(figures)) {
      assert.equal(families.get(name)[key], value, `activations.families[${name}].${key}`);
    }
    assert.match(families.get(name).source, /\[measured\] scripts\/census/);
    if (derived.gpu_measured.includes(name)) {
      assert.match(families.get(name).source, /\[measured on GPU\]/, `${name} says its figures came from a GPU`);
    }
    // Its range's width follows where it was measured (memory.yaml uncertainty.activations_measured_on_gpu).
    assert.equal(families.get(name).measured_on, derived.gpu_measured.includes(name) ? 'gpu' : 'cpu', `activations.families[${name}].measured_on`);
  }
});

// ComfyUI's own blocks in inference (scripts/census/comfyui_*.py): memory.yaml's comfyui figures are their runs', and
// every family with such a figure has a run.
test('memory.yaml comfyui_inference figures are the committed ComfyUI block census', () => {
  const families = new Map(JSON.parse(fs.readFileSync(memoryJson, 'utf8')).activations.families.map((f) => [f.family, f]));
  const measured = new Set();
  // A slope, not a single size: every row lies on it (the figure does not move with the token count), within 2 %: the
  // older FLUX double block's peak moves from its attention to its MLP as the image grows beside the fixed text.
  const onSlope = (where, fit, width) => {
    for (const row of fit.rows) {
      const fitted = fit.intercept_bytes + fit.bytes_per_token_channel * width * row.tokens;
      assert.ok(Math.abs(fitted / row.peak_bytes - 1) < 0.02, `${where} at ${row.tokens} tokens`);
    }
  };
  const wan = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_wan.json'), 'utf8'));
  for (const [name, fit] of Object.entries(wan.families)) {
    onSlope(name, fit, fit.width);
    assert.equal(families.get(name)?.comfyui_inference_bytes_per_token_channel, fit.bytes_per_token_channel, name);
    const older = wan.older_families[name];
    onSlope(`${name} (older)`, older, older.width);
    assert.equal(families.get(name)?.comfyui_older_inference_bytes_per_token_channel, older.bytes_per_token_channel, `${name} older`);
    measured.add(name);
  }
  const flux = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_flux.json'), 'utf8'));
  for (const [name, fit] of Object.entries(flux.blocks)) onSlope(`flux ${name}`, fit, flux.width);
  for (const [name, fit] of Object.entries(flux.older_blocks)) onSlope(`flux ${name} (older)`, fit, flux.width);
  const larger = Math.max(...Object.values(flux.blocks).map((b) => b.bytes_per_token_channel));
  const olderLarger = Math.max(...Object.values(flux.older_blocks).map((b) => b.bytes_per_token_channel));
  assert.equal(flux.families.flux.bytes_per_token_channel, larger);
  assert.equal(families.get('flux')?.comfyui_inference_bytes_per_token_channel, larger);
  assert.equal(families.get('flux')?.comfyui_older_inference_bytes_per_token_channel, olderLarger);
  measured.add('flux');
  for (const [name, fit] of Object.entries(flux.flux2_blocks)) onSlope(`flux2 ${name}`, fit, flux.width);
  const flux2Larger = Math.max(...Object.values(flux.flux2_blocks).map((b) => b.bytes_per_token_channel));
  assert.equal(flux.families.flux2.bytes_per_token_channel, flux2Larger);
  assert.equal(families.get('flux2')?.comfyui_inference_bytes_per_token_channel, flux2Larger);
  assert.equal(families.get('flux2')?.comfyui_older_inference_bytes_per_token_channel, undefined, 'FLUX.2 has no older ComfyUI blocks');
  measured.add('flux2');
  const qwen = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_qwen.json'), 'utf8'));
  onSlope('qwen_image', qwen.block, qwen.width);
  onSlope('qwen_image (older)', qwen.older_block, qwen.width);
  assert.equal(families.get('qwen_image')?.comfyui_inference_bytes_per_token_channel, qwen.block.bytes_per_token_channel);
  assert.equal(families.get('qwen_image')?.comfyui_older_inference_bytes_per_token_channel, qwen.older_block.bytes_per_token_channel);
  measured.add('qwen_image');
  const zimage = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_zimage.json'), 'utf8'));
  onSlope('zimage', zimage.block, zimage.width);
  assert.equal(families.get('zimage')?.comfyui_inference_bytes_per_token_channel, zimage.block.bytes_per_token_channel);
  measured.add('zimage');
  const sd3 = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_sd3.json'), 'utf8'));
  onSlope('mmdit (SD3)', sd3.block, sd3.width);
  assert.equal(families.get('mmdit')?.comfyui_inference_bytes_per_token_channel, sd3.block.bytes_per_token_channel);
  measured.add('mmdit');
  // LTX-2: the block as it runs with per-token timesteps (a noise mask: image-to-video, guides), the larger; the
  // range's top is the heaviest older form (v0.8's, which kept the timestep embeddings through every block).
  const ltx2 = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/comfyui_ltx2.json'), 'utf8'));
  onSlope('ltx2', ltx2.block.per_token_timestep, ltx2.width);
  onSlope('ltx2 (one timestep)', ltx2.block.scalar_timestep, ltx2.width);
  for (const [releases, older] of Object.entries(ltx2.older_blocks)) onSlope(`ltx2 ${releases}`, older.per_token_timestep, ltx2.width);
  const ltx2Older = Math.max(...Object.values(ltx2.older_blocks).map((b) => b.per_token_timestep.bytes_per_token_channel));
  assert.equal(families.get('ltx2')?.comfyui_inference_bytes_per_token_channel, ltx2.block.per_token_timestep.bytes_per_token_channel);
  assert.equal(families.get('ltx2')?.comfyui_older_inference_bytes_per_token_channel, ltx2Older);
  measured.add('ltx2');
  for (const [name, f] of families) {
    if (f.comfyui_inference_bytes_per_token_channel) assert.ok(measured.has(name), `${name} has a ComfyUI figure no run gives`);
  }
});

// memory.yaml's ltx decode figure is ComfyUI's planning estimate; the committed census of the decoder
// (scripts/census/ltx_vae_decode.py) is the floor of allocated tensors it must not fall below.
test("the LTX video decode's figure stays above the census of its decoder", () => {
  const run = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/ltx-vae-decode.json'), 'utf8'));
  const [a, b] = run.runs;
  // The peak is in the channel maps: halving the channels halves the bytes (within 1 %).
  assert.ok(Math.abs((a.bytes_per_output_frame_pixel * a.channel_divisor) / (b.bytes_per_output_frame_pixel * b.channel_divisor) - 1) < 0.01);
  const ltx = JSON.parse(fs.readFileSync(memoryJson, 'utf8')).vae.find((v) => v.family === 'ltx');
  assert.ok(ltx.decode_k >= run.released.decode_k, `decode_k ${ltx.decode_k} under the decoder's floor ${run.released.decode_k}`);
});

// rules/webui.yaml's UNet activations in a generation step are what scripts/census/unet_inference.py measured
// (tests/census/unet-inference.json): the plain UNet per latent pixel, the same at every size and channel divisor.
test("the WebUI families' UNet activations are the committed census of the plain UNet", () => {
  const webui = JSON.parse(fs.readFileSync(path.join(sourceDir, 'build/release/core/rules/webui.json'), 'utf8'));
  const run = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/unet-inference.json'), 'utf8'));
  for (const { id, channel_divisor: divisor, rows, bytes_per_latent_pixel: fit } of run.runs) {
    assert.ok(Math.abs(fit / run.bytes_per_latent_pixel[id] - 1) < 0.01, `${id} ÷${divisor} agrees with the other divisor`);
    for (const r of rows) {
      const perPixel = (r.peak_bytes * divisor) / r.latent_pixels;
      assert.ok(Math.abs(perPixel / fit - 1) < 0.01, `${id} ÷${divisor} at ${r.latent_side}²: ${perPixel.toFixed(0)} B per latent px`);
    }
  }
  const family = new Map(webui.families.map((f) => [f.id, f.unet_act_bytes_per_latent_pixel]));
  for (const [name, unet] of [['sd15', 'sd1.unet'], ['sd2', 'sd1.unet'], ['sdxl', 'sdxl.unet']]) {
    assert.equal(family.get(name), run.bytes_per_latent_pixel[unet], name);
  }
});

// rules/webui.yaml's ControlNet residuals per latent pixel are what scripts/census/controlnet.py measured
// (tests/census/controlnet.json): the controlled step peaks the residuals above the UNet alone, and the
// residuals are the rule's elements per latent pixel in bf16, at every size and channel width.
test('the ControlNet residual figure is the committed CPU measurement', () => {
  const webui = JSON.parse(fs.readFileSync(path.join(sourceDir, 'build/release/core/rules/webui.json'), 'utf8'));
  const elements = webui.constants.controlnet_unet_residual_elements;
  const run = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/controlnet.json'), 'utf8'));
  assert.ok(run.runs.length >= 2);
  for (const { id, channel_divisor: divisor, rows } of run.runs) {
    for (const r of rows) {
      const where = `${id} ÷${divisor} at ${r.latent_side}²`;
      const perPixel = (r.residual_bytes * divisor) / (r.latent_pixels * 2);
      assert.ok(Math.abs(perPixel / elements - 1) < 0.03, `${where}: ${perPixel.toFixed(0)} elements per latent px`);
      const extra = r.controlled_peak - r.unet_peak;
      assert.ok(Math.abs(extra / r.residual_bytes - 1) < 0.03, `${where}: the step adds ${extra} B, residuals ${r.residual_bytes} B`);
      assert.ok(r.controlnet_forward_peak < r.unet_peak, `${where}: the ControlNet's own forward stays below the UNet's`);
    }
  }
});

// rules/ai-toolkit/architectures.yaml's Adafactor figures for the UNets (factored_state_bytes_per_param,
// largest_tensor_params) are what scripts/census/adafactor_state.py counts on the census UNets' shapes (built on the
// meta device: no weights, no memory). It needs a Python with PyTorch (OOMLINT_TORCH_PYTHON, as the GPU scripts' smoke run).
const torchPython = process.env.OOMLINT_TORCH_PYTHON ?? python;
const hasTorch = hasPython && spawnSync(torchPython, ['-c', 'import torch']).status === 0;
test("the UNets' Adafactor state and largest tensor are the shape count's", {
  skip: hasTorch ? false : `${torchPython} cannot import torch (set OOMLINT_TORCH_PYTHON to a Python with PyTorch)`,
}, () => {
  const rulesDir = path.join(sourceDir, 'build/release/core/rules');
  const r = spawnSync(torchPython, [path.join(sourceDir, 'scripts/census/adafactor_state.py'), '--rules-dir', rulesDir], {
    encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  const archs = JSON.parse(fs.readFileSync(path.join(rulesDir, 'ai-toolkit/architectures.json'), 'utf8')).architectures;
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 2, r.stdout);
  for (const line of lines) {
    const [id, , perParam, largest] = line.split('\t');
    const d = archs.find((a) => a.arch === id.split('.')[0]).denoiser;
    assert.equal(d.factored_state_bytes_per_param.toFixed(3), Number.parseFloat(perParam).toFixed(3), `${id} B/param`);
    assert.equal(d.largest_tensor_params.toPrecision(4), Number.parseFloat(largest.replace('largest tensor ', '')).toPrecision(4), `${id} largest`);
  }
});

// The pixel-space heads (scripts/census/pixel_heads.py: Chroma Radiance's NeRF, Z-Image L2P's local decoder):
// architectures.yaml carries the committed run's figures at the real transformer width, each a slope every measured size
// lies on, and every architecture with such a figure has a run.
test('the pixel-head figures are the committed CPU census', () => {
  const archs = JSON.parse(fs.readFileSync(path.join(sourceDir, 'build/release/core/rules/ai-toolkit/architectures.json'), 'utf8')).architectures;
  const run = JSON.parse(fs.readFileSync(path.join(sourceDir, 'tests/census/pixel-heads.json'), 'utf8'));
  const withHead = archs.filter((a) => a.denoiser.pixel_head_training_bytes_per_pixel !== undefined).map((a) => a.arch);
  assert.deepEqual(withHead.sort(), Object.keys(run.heads).sort());
  for (const [arch, head] of Object.entries(run.heads)) {
    const d = archs.find((a) => a.arch === arch).denoiser;
    assert.equal(d.pixel_head_training_bytes_per_pixel, Math.round(head.at_real_width.training_bytes_per_pixel), arch);
    assert.equal(d.pixel_head_sampling_bytes_per_pixel, Math.round(head.at_real_width.sampling_bytes_per_pixel), arch);
    for (const [width, w] of Object.entries(head.widths)) {
      for (const r of w.rows) {
        for (const [peak, slope] of [['training_peak', 'training_bytes_per_pixel'], ['sampling_peak', 'sampling_bytes_per_pixel']]) {
          assert.ok(Math.abs(r[peak] / (r.pixels * w[slope]) - 1) < 0.05, `${arch} at width ${width}, ${r.pixels} px: ${peak}`);
        }
      }
    }
  }
});
