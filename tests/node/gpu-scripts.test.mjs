// The GPU measurement scripts, checked without a GPU or PyTorch: the dry run lists every family with the
// dimensions of the compiled rules, the derivation recovers coefficients planted in synthetic peaks, and
// the scripts parse. Runs after the native build (it reads build/release/core/rules).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { sourceDir } from './helpers.mjs';

const python = process.env.PYTHON ?? 'python3';
const hasPython = !spawnSync(python, ['--version']).error;
const skip = hasPython ? false : `${python} not found: the GPU script tests need Python 3`;
const gpuDir = path.join(sourceDir, 'scripts/gpu');
const censusDir = path.join(sourceDir, 'scripts/census');
const script = path.join(gpuDir, 'measure_activations.py');
const rulesDir = path.join(sourceDir, 'build/release/core/rules');
const architecturesJson = path.join(rulesDir, 'ai-toolkit/architectures.json');

// Families the issue names, by spec id: each must be in the plan.
const REQUIRED = ['flux.double', 'flux.single', 'sd3.mmdit', 'sd3_medium.mmdit', 'wan21.dit', 'wan21_1.3b.dit',
  'qwen_image.mmdit', 'sdxl.unet', 'sd1.unet', 'vae.kl_f8', 'vae.wan.image', 'vae.wan.video', 'vae.hunyuan.video'];

function tmpDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-gpu-'));
}

function runPython(args, env = {}) {
  const r = spawnSync(python, args, {
    cwd: sourceDir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env },
  });
  if (r.error) throw r.error;
  return r;
}

// `key=value` pairs of a dry-run line; quoted values may hold spaces.
function fields(line) {
  const out = {};
  for (const m of line.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[m[1]] = m[2].replace(/^"|"$/g, '');
  return out;
}

// The dry run with `import torch` made to fail: it must not need PyTorch.
function dryRun() {
  const blocker = tmpDir();
  fs.mkdirSync(path.join(blocker, 'torch'));
  fs.writeFileSync(path.join(blocker, 'torch/__init__.py'), 'raise ImportError("the dry run must not import torch")\n');
  const r = runPython([script, '--dry-run', '--rules-dir', rulesDir], { PYTHONPATH: blocker });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const lines = r.stdout.split('\n');
  const specs = new Map();
  let current = null;
  for (const line of lines) {
    if (line.startsWith('spec ')) {
      current = { ...fields(line), cases: [] };
      specs.set(current.id, current);
    } else if (line.trim().startsWith('case ')) {
      current.cases.push(fields(line));
    }
  }
  return { stdout: r.stdout, specs };
}

// The denoiser fields of an arch with a variant's overrides applied, as the estimator reads them.
function denoiser(archs, arch, variant) {
  const entry = archs.find((a) => a.arch === arch);
  assert.ok(entry, `arch ${arch} is in architectures.json`);
  const v = (entry.variants ?? []).find((x) => x.label === variant);
  return { ...entry.denoiser, ...(v?.denoiser ?? {}), vae: entry.vae };
}

test('the dry run reads the compiled rules and lists every required family, without PyTorch', { skip }, () => {
  assert.ok(fs.existsSync(architecturesJson), `${architecturesJson} exists (build the project first)`);
  const { stdout, specs } = dryRun();
  assert.match(stdout, /^rules: compiled rules in build\/release\/core\/rules$/m);
  for (const id of REQUIRED) assert.ok(specs.has(id), `${id} is planned:\n${stdout}`);
  assert.match(stdout, /^\d+ specs, \d+ cases$/m);
});

test('every DiT spec has the dimensions of architectures.json', { skip }, () => {
  const archs = JSON.parse(fs.readFileSync(architecturesJson, 'utf8')).architectures;
  const { specs } = dryRun();
  const dits = [...specs.values()].filter((s) => ['mmdit', 'single', 'joint', 'cross'].includes(s.kind));
  assert.ok(dits.length >= 7, 'at least the seven core DiT specs');
  for (const s of dits) {
    const d = denoiser(archs, s.arch, s.variant === '-' ? undefined : s.variant);
    assert.equal(Number(s.hidden), d.hidden, `${s.id} hidden`);
    assert.equal(Number(s.heads), d.heads, `${s.id} heads`);
    assert.ok(Math.abs(Number(s.mlp_ratio) - d.mlp_ratio) < 1e-3, `${s.id} mlp_ratio ${s.mlp_ratio} vs ${d.mlp_ratio}`);
    assert.equal(Number(s.patch), d.patch, `${s.id} patch`);
    assert.equal(Number(s.text_tokens), d.text_tokens, `${s.id} text tokens`);
    assert.equal(Number(s.blocks), d.blocks, `${s.id} blocks`);
    assert.equal(s.joint, String(d.joint_attention), `${s.id} joint attention`);
    assert.equal(Number(s.latent_channels), d.vae.latent_channels, `${s.id} latent channels`);
  }
  // The figures the issue names, spelled out.
  assert.equal(specs.get('flux.double').hidden, '3072');
  assert.equal(specs.get('flux.single').hidden, '3072');
  assert.equal(specs.get('wan21.dit').hidden, '5120');
  assert.equal(specs.get('wan21_1.3b.dit').hidden, '1536');
  assert.equal(specs.get('sd3.mmdit').hidden, '2432');
  // FLUX's double and single blocks split the arch's 57 blocks (19 + 38 in its dims_source).
  const flux = denoiser(archs, 'flux');
  assert.equal(Number(specs.get('flux.double').weight) + Number(specs.get('flux.single').weight), flux.blocks);
  assert.equal(specs.get('flux.double').weight, '19');
});

test('each DiT spec is measured with and without checkpointing at two depths and several token counts', { skip }, () => {
  const { specs } = dryRun();
  for (const id of ['flux.double', 'flux.single', 'sd3.mmdit', 'wan21.dit', 'qwen_image.mmdit']) {
    const s = specs.get(id);
    const train = s.cases.filter((c) => c.phase === 'train');
    for (const ckpt of ['true', 'false']) {
      const runs = train.filter((c) => c.checkpointing === ckpt);
      assert.ok(new Set(runs.map((c) => c.depth)).size >= 2, `${id} checkpointing=${ckpt}: two depths`);
      assert.ok(new Set(runs.map((c) => c.image_tokens)).size >= 2, `${id} checkpointing=${ckpt}: two token counts`);
    }
    for (const c of s.cases) {
      const text = s.joint === 'true' ? Number(s.text_tokens) : 0;
      assert.equal(Number(c.seq), Number(c.image_tokens) + text, `${c.id}: the estimator's sequence length`);
    }
    const sample = s.cases.filter((c) => c.phase === 'sample');
    assert.ok(sample.length >= 2, `${id} has sampling cases`);
    for (const c of sample) assert.equal(c.batch, s.cfg === 'true' ? '2' : '1', `${c.id}: CFG batch`);
  }
});

test('UNet and VAE specs take their latent channels from the rules', { skip }, () => {
  const archs = JSON.parse(fs.readFileSync(architecturesJson, 'utf8')).architectures;
  const { specs } = dryRun();
  for (const id of ['sdxl.unet', 'sd1.unet', 'vae.kl_f8', 'vae.wan.image', 'vae.wan.video', 'vae.hunyuan.video']) {
    const s = specs.get(id);
    assert.equal(Number(s.latent_channels), denoiser(archs, s.arch).vae.latent_channels, `${id} latent channels`);
  }
  assert.equal(specs.get('sdxl.unet').channels, '320,640,1280');
  assert.equal(specs.get('vae.kl_f8').widths, '128,256,512,512');
  assert.ok(specs.get('vae.wan.video').cases.every((c) => c.frames === '4'), 'a later causal chunk decodes 4 frames');
  assert.ok(specs.get('vae.hunyuan.video').cases.every((c) => c.frames === '17'), "HunyuanVideo's decoder takes its 5 latent frames at once");
});

test('missing rules are a clear error, not a traceback', { skip }, () => {
  const r = runPython([script, '--dry-run', '--rules-dir', tmpDir()]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no compiled rules found/);
  assert.doesNotMatch(r.stderr, /Traceback/);
});

// Synthetic peaks with known coefficients: the derivation must give them back.
function syntheticRun() {
  const h = 1000;
  const k = { 'x.double': 2.5, 'x.single': 4 };       // bytes kept per checkpointed block
  const rec = { 'x.double': 60, 'x.single': 45 };     // the recomputed block
  const blk = { 'x.double': 70, 'x.single': 50 };     // a whole block without checkpointing
  const once = 12;                                     // once-per-step term without checkpointing
  const inf = { 'x.double': 18, 'x.single': 22 };     // sampling transient
  const constant = 3e6;                                // LoRA grads, workspaces: not per token
  const measurements = [];
  const add = (m, alloc) => measurements.push({ ...m, status: 'ok', peak_allocated: alloc, peak_reserved: alloc * 1.25 });
  const specs = {};
  for (const [id, weight] of [['x.double', 10], ['x.single', 20]]) {
    specs[id] = { id, group: 'dit', family: 'x', arch: 'x', hidden: h, weight, arch_blocks: 30, text_tokens: 100,
      joint_attention: true, cfg_in_sampling: true };
    for (const depth of [2, 4]) {
      for (const t of [1000, 3000, 5000]) {
        const seq = t + 100;
        add({ spec: id, phase: 'train', checkpointing: true, depth, seq, batch: 1, id: `${id}/c/${depth}/${t}` },
          (depth * k[id] + rec[id]) * seq * h + constant);
        add({ spec: id, phase: 'train', checkpointing: false, depth, seq, batch: 1, id: `${id}/f/${depth}/${t}` },
          (depth * blk[id] + once) * seq * h + constant);
      }
    }
    for (const t of [1000, 3000]) {
      add({ spec: id, phase: 'sample', checkpointing: false, depth: 4, seq: t + 100, batch: 2, id: `${id}/s/${t}` },
        2 * inf[id] * (t + 100) * h + constant);
    }
  }
  specs['u.unet'] = { id: 'u.unet', group: 'unet', family: 'u', arch: 'sdxl' };
  for (const side of [32, 64]) {
    const px = side * side;
    add({ spec: 'u.unet', phase: 'train', checkpointing: true, latent_pixels: px, batch: 1, id: `u/c/${side}` }, 25000 * px + constant);
    add({ spec: 'u.unet', phase: 'train', checkpointing: false, latent_pixels: px, batch: 1, id: `u/f/${side}` }, 300000 * px + constant);
    add({ spec: 'u.unet', phase: 'sample', checkpointing: false, latent_pixels: px, batch: 2, id: `u/s/${side}` }, 2 * 1280 * 30 * px);
  }
  specs['v.vae'] = { id: 'v.vae', group: 'vae', family: 'v.vae', keys: ['vae.sd.decode_k'] };
  for (const size of [256, 512]) {
    add({ spec: 'v.vae', phase: 'decode', pixels: size * size, width: size, height: size, frames: 1, batch: 1, id: `v/${size}` },
      2 * 2100 * size * size);
  }
  measurements.push({ spec: 'x.double', phase: 'train', checkpointing: true, depth: 8, seq: 9000, batch: 1, id: 'oom', status: 'oom', error: 'CUDA out of memory' });
  const estimate_side = { checkpoint_bytes_per_token_channel: 2, block_bytes_per_token_channel: 40, multiplier: 1.2,
    inference_bytes_per_token_channel: 20, unet_bytes_per_latent_pixel_checkpointed: 23000,
    unet_bytes_per_latent_pixel_full: 280000, arch_unet_bytes_per_latent_pixel: {}, vae: { sd: { decode_k: 2200 } },
    allocator_fraction: 0.15, cuda_context_bytes: 536870912 };
  return { data: { schema: 'oomlint-measured-activations/1', provenance: {}, settings: { mode: 'autocast' }, estimate_side, specs,
    measurements, derived: null }, k, rec, blk, once, inf };
}

function near(actual, expected, what) {
  assert.ok(actual !== null && Math.abs(actual - expected) <= 1e-6 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} ≠ ${expected}`);
}

test('--rederive recovers the per-block, once-per-step, sampling, UNet and VAE coefficients', { skip }, () => {
  const dir = tmpDir();
  const { data, k, rec, blk, once, inf } = syntheticRun();
  const input = path.join(dir, 'raw.json');
  fs.writeFileSync(input, JSON.stringify(data));
  const out = path.join(dir, 'out');
  const r = runPython([script, '--rederive', input, '--out', out]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const derived = JSON.parse(fs.readFileSync(path.join(out, 'measured-activations.json'), 'utf8')).derived;
  for (const id of ['x.double', 'x.single']) {
    const c = derived.per_spec[id].peak_allocated;
    near(c.checkpoint, k[id], `${id} checkpoint`);
    near(c.recompute, rec[id], `${id} recompute`);
    near(c.block, blk[id], `${id} block`);
    near(c.full_once, once, `${id} once`);
    near(c.inference, inf[id], `${id} inference`);
    near(derived.per_spec[id].peak_reserved.block, blk[id] * 1.25, `${id} reserved block`);
  }
  // Family: per-block terms weighted 10 : 20, once-per-step terms from the larger kind.
  const fam = derived.families.x.peak_allocated;
  near(fam.checkpoint, (10 * k['x.double'] + 20 * k['x.single']) / 30, 'family checkpoint');
  near(fam.block, (10 * blk['x.double'] + 20 * blk['x.single']) / 30, 'family block');
  near(fam.recompute, rec['x.double'], 'family recompute');
  const keys = derived.memory_yaml.peak_allocated;
  near(keys['activations.unet_bytes_per_latent_pixel_checkpointed'], 25000, 'UNet checkpointed');
  near(keys['activations.unet_bytes_per_latent_pixel_full'], 300000, 'UNet full');
  near(keys['activations.inference_bytes_per_token_channel (SDXL UNet, 1280 ch)'], 30, 'UNet sampling');
  near(keys['vae.sd.decode_k'], 2100, 'VAE decode K');
  near(derived.allocator.median_fraction, 0.25, 'allocator slack');
  // Whole model at 4096 image tokens: Σ blocks × per-block term + the recomputed block.
  const full = derived.full_depth.x;
  near(full.measured_checkpointed_peak_allocated, (10 * k['x.double'] + 20 * k['x.single'] + rec['x.double']) * 4196 * 1000,
    'full-depth checkpointed');
  near(full.estimate_checkpointed, (30 * 2 + 40) * 4196 * 1000 * 1.2, 'full-depth estimate');
  const table = fs.readFileSync(path.join(out, 'measured-activations.md'), 'utf8');
  assert.match(table, /\| `activations\.checkpoint_bytes_per_token_channel` \| 2 \| 2\.4 \|/);
  assert.match(table, /1 not \(oom\)/);
  assert.match(r.stdout, /# Measured activation and VAE coefficients/);
});

// The PyTorch half runs on the CPU at toy widths where some Python can import torch (Debian's
// python3-torch will do; OOMLINT_TORCH_PYTHON names it): every block kind, the UNet and both VAE decoders
// build, step and write their results. Nothing is measured there; the GPU run measures.
const torchPython = process.env.OOMLINT_TORCH_PYTHON ?? python;
const hasTorch = hasPython && spawnSync(torchPython, ['-c', 'import torch']).status === 0;
const skipSmoke = hasTorch ? false
  : `${torchPython} cannot import torch: the CPU smoke run is skipped (set OOMLINT_TORCH_PYTHON to a Python with PyTorch)`;

test('the CPU smoke run builds and steps every block kind, the UNet and the VAE decoders', { skip: skipSmoke }, () => {
  const out = tmpDir();
  const r = spawnSync(torchPython, [script, '--smoke', '--rules-dir', rulesDir, '--out', out,
    '--only', 'flux.double,flux.single,wan21.dit,zimage,sdxl.unet,vae'], {
    cwd: sourceDir, encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const data = JSON.parse(fs.readFileSync(path.join(out, 'measured-activations.json'), 'utf8'));
  const failed = data.measurements.filter((m) => m.status !== 'ok');
  assert.deepEqual(failed, [], 'every smoke case ran');
  for (const id of ['flux.double', 'flux.single', 'wan21.dit', 'zimage.joint', 'sdxl.unet', 'vae.kl_f8', 'vae.wan.video', 'vae.hunyuan.video']) {
    assert.equal(data.specs[id]?.built?.status, 'built', `${id} built`);
  }
  assert.ok(data.derived, 'the derived section is written');
  assert.ok(fs.existsSync(path.join(out, 'measured-activations.md')));
  assert.ok(!fs.existsSync(path.join(gpuDir, '__pycache__')), 'no __pycache__ left in scripts/gpu');
});

test('the device script is valid bash and the Python modules compile', { skip }, () => {
  const bash = spawnSync('bash', ['-n', path.join(sourceDir, 'scripts/gpu-measure.sh')], { encoding: 'utf8' });
  assert.equal(bash.status, 0, bash.stderr);
  const pythonIn = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.py')).map((f) => path.join(dir, f));
  const modules = pythonIn(gpuDir);
  assert.ok(modules.length >= 5, 'the measurement modules are there');
  const census = pythonIn(censusDir);
  assert.ok(census.some((f) => f.endsWith('comfy_ops.py')), 'the census scripts are there');
  // Bytecode goes to a temporary prefix, never into scripts/gpu/__pycache__.
  const r = runPython(['-m', 'py_compile', ...modules, ...census], { PYTHONPYCACHEPREFIX: tmpDir() });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!fs.existsSync(path.join(gpuDir, '__pycache__')), 'no __pycache__ left in scripts/gpu');
  assert.ok(!fs.existsSync(path.join(censusDir, '__pycache__')), 'no __pycache__ left in scripts/census');
});
