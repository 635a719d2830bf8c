// Input limits (core/base/document/limits.h), native and WebAssembly alike: every case — input size, line
// length, number of nodes and keys, nesting depth, alias expansion, and a log with one enormous line —
// goes through the CLI and the WASM module, which must report the same findings (the limit's OL103 where
// there is one), finish quickly, and not crash: the WebAssembly stack is 1 MiB, so 100000 levels of `[`,
// `{` or `- ` must be refused without recursing. Large inputs are generated here rather than committed;
// the small ones are fixtures in tests/fixtures/input/ (their expectations are checked by the unit suite).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { cli, fixture, wasmDir } from './helpers.mjs';

const require = createRequire(import.meta.url);
const MiB = 1024 * 1024;
// Each side must answer within this: the limits exist so that hostile input costs about as much as a
// real config. Typical times on the 2-core build machine are far below it (docs/robustness.md).
const budgetMs = 8000;

const job = `job: extension
config:
  name: limits_lora
  process:
    - type: sd_trainer
      training_folder: output
      network: {type: lora, linear: 16, linear_alpha: 16}
      datasets: [{folder_path: /data/images, resolution: [512, 768, 1024]}]
      train: {batch_size: 1, steps: 2000, gradient_checkpointing: true, optimizer: adamw8bit, lr: 1e-4, dtype: bf16}
      model: {name_or_path: black-forest-labs/FLUX.1-dev, arch: flux, quantize: true}
      sample: {sample_every: 250, width: 1024, height: 1024, samples: [{prompt: a bear}]}
`;
const jsonJob = '{"job": "extension", "config": {"name": "limits_lora", "process": [{"type": "sd_trainer"}]}';
const times = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('');
const bomb = (levels, item) =>
  times(levels, (i) => `  l${i}: &a${i} ${i === 0 ? '["lol"]' : item(`*a${i - 1}`)}\n`);

// name, the input (a fixture path or generated text with its extension), the code it must report
// (null: no finding required, only agreement and speed).
const cases = [
  // Fixtures.
  { name: 'alias bomb, 9^10 strings (fixture)', file: fixture('input/alias-bomb.yaml'), code: 'OL103' },
  { name: '5000 nested flow sequences (fixture)', file: fixture('input/deep-nesting.yaml'), code: 'OL103' },
  { name: '1000 nested block sequences `- - -` (fixture)', file: fixture('input/deep-nesting-block.yaml'), code: 'OL103' },
  { name: '1000 nested flow mappings (fixture)', file: fixture('input/deep-nesting-flow-map.yaml'), code: 'OL103' },
  { name: '5000 nested JSON arrays (fixture)', file: fixture('input/deep-nesting.json'), code: 'OL103' },
  // Input size: over 8 MiB.
  { name: 'input size: a 9 MB YAML config', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + `  # ${'y'.repeat(1000)}\n`.repeat(9000) },
  { name: 'input size: a 9 MB JSON config', ext: '.json', code: 'OL103',
    text: () => jsonJob + ', "meta": [\n' + `"${'y'.repeat(1000)}",\n`.repeat(9000) + '""]}' },
  // Line length: over 1 MiB on one line.
  { name: 'line length: a 1.5 MiB YAML line', ext: '.yaml', code: 'OL103',
    text: () => job + `meta: "${'x'.repeat(1.5 * MiB)}"\n` },
  { name: 'line length: minified JSON, 1.5 MiB on one line', ext: '.json', code: 'OL103',
    text: () => jsonJob + ', "meta": [' + '"abcdefgh",'.repeat(150000) + '""]}' },
  // Number of nodes: over 500000.
  { name: 'nodes: a flow sequence of 520000 numbers', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta: [' + '0,'.repeat(520000) + '0]\n' },
  { name: 'nodes: 260000 one-key mappings in a block list', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + '  - k: 0\n'.repeat(260000) },
  { name: 'nodes: a JSON array of 520000 numbers, one per line', ext: '.json', code: 'OL103',
    text: () => jsonJob + ', "meta": [\n' + '0,\n'.repeat(520000) + '0]}' },
  // Number of keys in one mapping.
  { name: 'keys: one YAML mapping with 260000 keys', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + times(260000, (i) => `  k${i}: 0\n`) },
  { name: 'keys: one JSON object with 260000 members', ext: '.json', code: 'OL103',
    text: () => jsonJob + ', "meta": {\n' + times(260000, (i) => `"k${i}": 0,\n`) + '"end": 0}}' },
  { name: 'keys: one YAML mapping with 5000 keys (under every limit)', ext: '.yaml', code: null,
    text: () => job + 'meta:\n' + times(5000, (i) => `  k${i}: 0\n`) },
  { name: 'keys: one YAML mapping with 200000 keys, the last a duplicate (under every limit)', ext: '.yaml', code: 'OL104',
    text: () => job + 'meta:\n' + times(199999, (i) => `  k${i}: 0\n`) + '  k0: 1\n' },
  { name: 'keys: one JSON object with 200000 members, the last a duplicate (under every limit)', ext: '.json', code: 'OL104',
    text: () => jsonJob + ', "meta": {\n' + times(199999, (i) => `"k${i}": 0,\n`) + '"k0": 1}}' },
  // Alias expansion: over 1000000 nodes once aliases are expanded.
  { name: 'aliases: 10^19 through sequences', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + bomb(20, (a) => `[${Array(10).fill(a).join(', ')}]`) },
  { name: 'aliases: 10^19 through mappings', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + bomb(20, (a) => `{${times(10, (j) => `k${j}: ${a}, `)}z: 0}`) },
  { name: 'aliases: the bomb used where the checks read (datasets, samples)', ext: '.yaml', code: 'OL103',
    text: () => 'x-defs:\n' + bomb(20, (a) => `[${Array(10).fill(a).join(', ')}]`) +
      job.replace('samples: [{prompt: a bear}]', 'samples: *a19').replace('resolution: [512, 768, 1024]', 'resolution: *a19') },
  { name: 'aliases: 10^11 through merge keys `<<: [*a, *a, ...]`', ext: '.yaml', code: 'OL103',
    text: () => 'x-defs:\n' + bomb(12, (a) => `{<<: [${Array(10).fill(a).join(', ')}]}`) +
      job.replace('model: {', 'model: {<<: *a11, ') },
  // Nesting depth: 100000 levels, far past the limit of 100 and any stack.
  { name: 'depth: 100000 `[` in JSON', ext: '.json', code: 'OL103', text: () => '['.repeat(100000) },
  { name: 'depth: 100000 `{"a":` in JSON', ext: '.json', code: 'OL103',
    text: () => '{"a":'.repeat(100000) + '1' + '}'.repeat(100000) },
  { name: 'depth: 100000 `[` in YAML', ext: '.yaml', code: 'OL103', text: () => 'a: ' + '['.repeat(100000) },
  { name: 'depth: 100000 `{a: ` in YAML', ext: '.yaml', code: 'OL103', text: () => 'a: ' + '{a: '.repeat(100000) },
  { name: 'depth: 100000 `- ` in YAML', ext: '.yaml', code: 'OL103', text: () => job + 'meta:\n  ' + '- '.repeat(100000) + 'x\n' },
  { name: 'depth: 200 indented block mappings', ext: '.yaml', code: 'OL103',
    text: () => job + 'meta:\n' + times(200, (i) => ' '.repeat(2 * i + 2) + 'a:\n') + ' '.repeat(402) + 'b: 1\n' },
  // A log is streamed by the CLI and scanned whole by the module: one 16 MiB line, then the OOM.
  { name: 'log: a 16 MiB line without a break, then an OOM', ext: '.log', code: 'OL601',
    text: () => 'Running 1 job\n' + 'x'.repeat(16 * MiB) + '\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate ' +
      '1.50 GiB. GPU 0 has a total capacity of 23.55 GiB of which 1.02 GiB is free.\n' },
];

// What must agree: every finding's code, severity, range and message.
function findings(report) {
  return report.files.flatMap((f) => f.diagnostics).map(({ code, severity, range, message }) => ({ code, severity, range, message }));
}

let oomlint;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-limits-'));
test.before(async () => {
  const createOomlint = require(path.join(wasmDir, 'oomlint.js'));
  oomlint = await createOomlint({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')) });
});
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

for (const c of cases) {
  test(c.name, (t) => {
    let file = c.file;
    let text;
    if (file) {
      text = fs.readFileSync(file, 'utf8');
    } else {
      text = c.text();
      file = path.join(tmp, `case${c.ext}`);
      fs.writeFileSync(file, text);
    }

    let start = performance.now();
    const run = spawnSync(cli, ['check', '--format', 'json', file], { encoding: 'utf8', maxBuffer: 256 * MiB });
    const cliMs = performance.now() - start;
    assert.equal(run.error, undefined, `the CLI did not run: ${run.error}`);
    assert.ok(run.signal === null && [0, 1, 2].includes(run.status), `the CLI crashed: status ${run.status}, signal ${run.signal}\n${run.stderr}`);
    const fromCli = JSON.parse(run.stdout);

    start = performance.now();
    const fromWasm = JSON.parse(oomlint.analyze(text, file, '', 0, 0));
    const wasmMs = performance.now() - start;
    assert.equal(fromWasm.error, undefined, `the module reported an error: ${fromWasm.error}`);

    const got = findings(fromWasm);
    assert.deepEqual(got, findings(fromCli), 'WASM and CLI disagree');
    if (c.code) assert.ok(got.some((d) => d.code === c.code), `no ${c.code}: ${JSON.stringify(got.map((d) => d.code))}`);
    if (c.code === 'OL103') assert.ok(got.some((d) => d.code === 'OL103' && /input limit/.test(d.message)));
    assert.ok(cliMs < budgetMs, `the CLI took ${cliMs.toFixed(0)} ms`);
    assert.ok(wasmMs < budgetMs, `the module took ${wasmMs.toFixed(0)} ms`);
    t.diagnostic(`CLI ${cliMs.toFixed(0)} ms, WASM ${wasmMs.toFixed(0)} ms`);
  });
}
