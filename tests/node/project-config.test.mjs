// The project file (.oomlint.yaml) and inline suppressions, through the CLI.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { runCli } from './helpers.mjs';

// A valid FLUX job with one unknown key (OL201, warning) and one deprecated key (OL206, info).
const job = (extraTrain = '') => `job: extension
config:
  name: t
  process:
    - type: sd_trainer
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
        quantize: true
        is_flux: true
      train:
        dtype: bf16
        gradient_checkpointing: true
        gradient_checkpoint: true
${extraTrain}`;

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-project-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

const check = (args) => {
  const r = runCli(['check', '--format', 'json', ...args]);
  return { ...r, report: r.stdout ? JSON.parse(r.stdout) : null };
};
const codes = (report, i = 0) => report.files[i].diagnostics.map((d) => `${d.code}:${d.severity}`).sort();

test('the nearest project file sets the card, the fail level, disabled codes and severities', () => {
  const root = tree({
    '.oomlint.yaml': 'gpu: RTX 3060 12GB\nfail_on: warning\ndisable: [deprecated-key]\nseverity: {OL201: error}\n',
    'jobs/flux/job.yaml': job(),
  });
  const file = path.join(root, 'jobs/flux/job.yaml');
  const plain = check(['--no-config', file]);
  assert.deepEqual(codes(plain.report), ['OL201:warning', 'OL206:info']);
  assert.equal(plain.code, 0);
  assert.equal(plain.report.files[0].estimate.gpu.name, 'RTX 4090');

  const governed = check([file]);
  assert.ok(codes(governed.report).includes('OL201:error'));
  assert.ok(!codes(governed.report).some((c) => c.startsWith('OL206')));
  assert.equal(governed.report.files[0].estimate.gpu.name, 'RTX 3060 12GB');
  // On a named card the estimate findings appear (the FLUX job does not fit 12 GB).
  assert.ok(codes(governed.report).some((c) => c.startsWith('OL501')));
  assert.equal(governed.code, 1);

  // Flags beat the file.
  assert.equal(check(['--fail-on', 'never', file]).code, 0);
  assert.equal(check(['--gpu', 'H100 SXM', file]).report.files[0].estimate.gpu.name, 'H100 SXM');
  // The same file given explicitly, from anywhere.
  assert.deepEqual(codes(check(['--config', path.join(root, '.oomlint.yaml'), file]).report), codes(governed.report));
});

test('the project file gives the machine\'s RAM per path; --ram wins', () => {
  const offload = fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/rules/OL504-estimated-host-ram-oom.yaml'), 'utf8');
  const root = tree({
    '.oomlint.yaml': 'ram: 24\noverrides:\n  - paths: ["big/**"]\n    ram: 128\n',
    'small/job.yaml': offload,
    'big/job.yaml': offload,
  });
  const result = check([path.join(root, 'small/job.yaml'), path.join(root, 'big/job.yaml')]);
  assert.equal(result.report.files[0].estimate.host.verdict, 'oom');
  assert.equal(result.report.files[1].estimate.host.verdict, 'fits');
  assert.equal(result.report.files[1].estimate.host.ram_bytes, 128 * 2 ** 30);
  assert.equal(check(['--ram', '128', path.join(root, 'small/job.yaml')]).report.files[0].estimate.host.verdict, 'fits');
  assert.match(check([path.join(tree({ '.oomlint.yaml': 'ram: lots\n', 'job.yaml': offload }), 'job.yaml')]).stderr, /`ram` must be a positive size in GiB/);
});

test('per-path overrides apply to matching files only; later ones win', () => {
  const root = tree({
    '.oomlint.yaml': 'fail_on: never\noverrides:\n  - paths: ["video/**/*.yaml"]\n    disable: [OL201]\n  - paths: ["video/wan/*.yaml"]\n    severity: {OL206: warning}\n',
    'video/wan/job.yaml': job(),
    'video/job.yaml': job(),
    'image/job.yaml': job(),
  });
  const result = check([path.join(root, 'video/wan/job.yaml'), path.join(root, 'video/job.yaml'), path.join(root, 'image/job.yaml')]);
  assert.deepEqual(codes(result.report, 0), ['OL206:warning']);
  assert.deepEqual(codes(result.report, 1), ['OL206:info']);
  assert.deepEqual(codes(result.report, 2), ['OL201:warning', 'OL206:info']);
  assert.equal(result.code, 0);
});

test('a relative input is governed from its own folder up, whatever folder it is named from', () => {
  const root = tree({
    'here/.oomlint.yaml': 'gpu: RTX 3060 12GB\n',
    'there/.oomlint.yaml': 'gpu: H100 SXM\noverrides:\n  - paths: ["wan/*.yaml"]\n    gpu: A100 80GB\n',
    'there/wan/job.yaml': job(),
    'elsewhere/job.yaml': job(),
  });
  const gpuOf = (input) => {
    const r = runCli(['check', '--format', 'json', input], undefined, path.join(root, 'here'));
    return JSON.parse(r.stdout).files[0].estimate.gpu.name;
  };
  // `..` takes away the folder before it: here/.oomlint.yaml governs none of these.
  assert.equal(gpuOf('../there/wan/job.yaml'), 'A100 80GB');
  assert.equal(gpuOf('./../there//wan/./job.yaml'), 'A100 80GB');
  assert.equal(gpuOf('../there/wan/../../elsewhere/job.yaml'), 'RTX 4090');
  assert.equal(gpuOf(path.join(root, 'elsewhere/job.yaml')), 'RTX 4090');
  // `..` above the root stays at the root, as the kernel reads it.
  assert.equal(gpuOf('../'.repeat(root.split('/').length + 2) + root.slice(1) + '/there/wan/job.yaml'), 'A100 80GB');
  // A project file named with --config applies its overrides by the input's path relative to its folder.
  const r = runCli(['check', '--format', 'json', '--config', '../there/.oomlint.yaml', '../elsewhere/job.yaml'], undefined,
    path.join(root, 'here'));
  assert.equal(JSON.parse(r.stdout).files[0].estimate.gpu.name, 'H100 SXM');
});

test('a broken project file is a usage error that points into it', () => {
  const root = tree({ '.oomlint.yaml': 'gpus: RTX 4090\nseverity: {OL999: error}\n', 'job.yaml': job() });
  const r = runCli(['check', path.join(root, 'job.yaml')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /\.oomlint\.yaml:1:1: error: unknown key `gpus`; did you mean `gpu`\?/);
  assert.match(r.stderr, /\.oomlint\.yaml:2:12: error: unknown rule `OL999`/);
  const badGpu = tree({ '.oomlint.yaml': 'gpu: RTX 9999\n', 'job.yaml': job() });
  const g = runCli(['check', path.join(badGpu, 'job.yaml')]);
  assert.equal(g.code, 2);
  assert.match(g.stderr, /\.oomlint\.yaml: unknown GPU 'RTX 9999'/);
  // One that cannot be read, or is over the limit, says which and why.
  const folder = runCli(['check', '--config', root, path.join(root, 'job.yaml')]);
  assert.equal(folder.code, 2);
  assert.match(folder.stderr, /cannot read the project file /);
  const big = tree({ '.oomlint.yaml': `${'# a comment line\n'.repeat(70000)}gpu: RTX 4090\n`, 'job.yaml': job() });
  const b = runCli(['check', path.join(big, 'job.yaml')]);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /\.oomlint\.yaml: the project file is larger than 1 MiB/);
});

test('inline suppressions: a suppressed finding disappears, an unused one is reported, a forbidden one fails', () => {
  const suppressed = job().replace('gradient_checkpoint: true', 'gradient_checkpoint: true  # oomlint: disable=OL201 kept for the old trainer');
  const root = tree({
    'ok/job.yaml': suppressed,
    'unused/job.yaml': suppressed.replace('dtype: bf16', 'dtype: bf16  # oomlint: disable=OL401 nothing here'),
    'strict/.oomlint.yaml': 'allow_suppressions: false\n',
    'strict/job.yaml': suppressed,
  });
  const ok = check([path.join(root, 'ok/job.yaml')]);
  assert.deepEqual(codes(ok.report), ['OL206:info']);
  assert.equal(ok.code, 0);

  const unused = check(['--fail-on', 'warning', path.join(root, 'unused/job.yaml')]);
  const ol108 = unused.report.files[0].diagnostics.find((d) => d.code === 'OL108');
  assert.equal(ol108.range.start.line, 12);
  assert.match(ol108.message, /unused suppression: no OL401 finding on line 12/);
  assert.equal(unused.code, 1);

  const strict = check([path.join(root, 'strict/job.yaml')]);
  assert.deepEqual(codes(strict.report), ['OL109:error', 'OL201:warning', 'OL206:info']);
  assert.equal(strict.code, 1);
});

test('a log gets its project file too: a disabled log finding is not reported', () => {
  const log = 'Traceback (most recent call last):\n  File "run.py", line 1, in <module>\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free.\n';
  const root = tree({ '.oomlint.yaml': 'disable: [OL601]\n', 'run.log': log });
  const file = path.join(root, 'run.log');
  assert.ok(codes(check(['--no-config', file]).report).some((c) => c.startsWith('OL601')));
  assert.ok(!codes(check([file]).report).some((c) => c.startsWith('OL601')));
});
