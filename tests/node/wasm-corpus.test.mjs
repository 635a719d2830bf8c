// Every config, command line and log in ../shared/corpus through the WebAssembly module gives exactly the JSON
// the native CLI prints for it: the browser and CI see the same findings, estimate and plan.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { runCli, sharedDir, sharedSkip, wasmDir } from './helpers.mjs';

const require = createRequire(import.meta.url);

function corpusFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ya?ml|json|log|toml|sh|bat|ps1)$/.test(entry.name) && entry.name !== 'manifest.yaml') files.push(full);
    }
  };
  walk(path.join(sharedDir, 'corpus'));
  return files.sort();
}

test('WASM and CLI agree on every corpus config and log', { skip: sharedSkip }, async () => {
  const createOomlint = require(path.join(wasmDir, 'oomlint.js'));
  const oomlint = await createOomlint({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')) });
  const files = corpusFiles();
  const logs = files.filter((f) => f.endsWith('.log'));
  assert.ok(files.length - logs.length >= 20 && logs.length >= 50, `corpus: ${files.length - logs.length} configs, ${logs.length} logs`);
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const fromCli = JSON.parse(runCli(['check', '--format', 'json', file]).stdout);
    assert.deepEqual(JSON.parse(oomlint.analyze(text, file, '', 0, 0)), fromCli, file);
    // Every corpus log is told from a config, whatever its first line looks like.
    if (file.endsWith('.log')) assert.equal(fromCli.files[0].kind, 'log', file);
  }
  // A config with the log of its failed run, as the page sends them, against `check --log`.
  const config = path.join(sharedDir, 'corpus/ai-toolkit/examples/train_lora_flux_24gb.yaml');
  const log = path.join(sharedDir, 'corpus/logs/018_ai-toolkit_flux-dev-4090.log');
  const withLog = oomlint.analyzeWithLog(fs.readFileSync(config, 'utf8'), config, fs.readFileSync(log, 'utf8'), '', 0, 0);
  const cliWithLog = runCli(['check', '--format', 'json', '--log', log, config]).stdout;
  const normalise = (report) => ({ ...report, files: report.files.map((f) => (f.kind === 'log' ? { ...f, path: '<log>' } : f)) });
  assert.deepEqual(normalise(JSON.parse(withLog)), normalise(JSON.parse(cliWithLog)));
});

// Byte orders and encodings, %YAML directives and escape errors: the YAML reader's edges, where a
// build difference (the module is -Oz, LTO and 32-bit) would show; each gives the CLI's report, message and position.
test('the module gives the CLI\'s reports on encodings, directives and escapes', async () => {
  const createOomlint = require(path.join(wasmDir, 'oomlint.js'));
  const oomlint = await createOomlint({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')) });
  const job = 'job: extension\nconfig:\n  name: x\n  process:\n    - type: sd_trainer\n';
  const inputs = [];
  for (const start of ['', '\0', '\0\0\0', '\0\0', 'a\0', '\uFEFF', '\uFEFF\uFEFF', '\u00FE\u00FF']) inputs.push(start + job);
  inputs.push(`${job}\0\0\0`, '', '\0', '\uFEFF');
  for (const version of ['1.2', '1.1', '2.0', '1', '1.2.3', 'a.b', '+1.-2', '99999999999.1', '1.2x', '1.', '.2', '-0.0', '1,1', '01.02', '2147483647.2147483648']) {
    inputs.push(`%YAML ${version}\n---\n${job}`);
  }
  inputs.push(`%YAML 1.2\n%YAML 1.2\n---\n${job}`);
  for (const escape of ['\\uD800', '\\uDFFF', '\\U00110000', '\\U0010FFFF', '\\x4g', '\\q', '\\x', '\\u00e9\\x41']) {
    inputs.push(job.replace('name: x', `name: "${escape}"`));
  }
  inputs.push(`${job}---\nb: 2\n`, `${job}---\nb: [\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-yaml-'));
  try {
    const seen = new Set();
    inputs.forEach((text, i) => {
      const file = path.join(dir, `config-${i}.yaml`);
      fs.writeFileSync(file, text);
      const fromCli = JSON.parse(runCli(['check', '--format', 'json', file]).stdout);
      assert.deepEqual(JSON.parse(oomlint.analyze(text, file, '', 0, 0)), fromCli, JSON.stringify(text));
      for (const d of fromCli.files[0].diagnostics) seen.add(d.code);
    });
    // The cases reach the parser's errors, not only its successes.
    assert.ok(seen.has('OL101') && seen.has('OL106'), [...seen].join(' '));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
