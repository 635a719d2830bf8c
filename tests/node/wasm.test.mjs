// The WebAssembly module gives the same report as the native CLI for the same input.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import test from 'node:test';

import { fixture, runCli, sharedDir, sourceDir, wasmDir } from './helpers.mjs';

const require = createRequire(import.meta.url);

async function loadModule() {
  const createOomlint = require(path.join(wasmDir, 'oomlint.js'));
  // Emscripten's fetch cannot read file paths under Node: hand it the bytes.
  return createOomlint({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')) });
}

const inputs = [
  fixture('clean/base-flux-lora.yaml'),
  fixture('rules/OL201-unknown-key.yaml'),
  fixture('rules/OL405-frames-off-grid.yaml'),
  fixture('rules/OL504-estimated-host-ram-oom.yaml'),
  fixture('input/json-valid.json'),
  fixture('input/syntax-unclosed-quote.yaml'),
  path.join(sharedDir, 'corpus/ai-toolkit/examples/train_lora_wan21_14b_24gb.yaml'),
].filter((file) => fs.existsSync(file));

test('the module answers with the same findings as the CLI', async () => {
  const oomlint = await loadModule();
  assert.ok(inputs.length >= 5);
  let findings = 0;
  for (const file of inputs) {
    const text = fs.readFileSync(file, 'utf8');
    const fromWasm = JSON.parse(oomlint.analyze(text, file, '', 0, 0));
    const fromCli = JSON.parse(runCli(['check', '--format', 'json', file]).stdout);
    assert.deepEqual(fromWasm, fromCli, file);
    findings += fromWasm.files[0].diagnostics.length;
    // With a card named, the estimate findings and plan must agree too.
    const onCard = JSON.parse(oomlint.analyze(text, file, 'RTX 3060 12GB', 0, 0));
    assert.deepEqual(onCard, JSON.parse(runCli(['check', '--format', 'json', '--gpu', 'RTX 3060 12GB', file]).stdout), file);
    assert.deepEqual(JSON.parse(oomlint.analyze(text, file, '', 16, 0)),
                     JSON.parse(runCli(['check', '--format', 'json', '--vram', '16', file]).stdout), file);
    // And with the machine's RAM: the host-RAM verdict, findings and plan.
    assert.deepEqual(JSON.parse(oomlint.analyze(text, file, '', 16, 24)),
                     JSON.parse(runCli(['check', '--format', 'json', '--vram', '16', '--ram', '24', file]).stdout), file);
  }
  assert.ok(findings > 0, 'the comparison must include real findings');
  assert.match(JSON.parse(oomlint.analyze('a: 1', 'x.yaml', 'RTX 9999', 0, 0)).error, /unknown GPU/);
  // A size that is no size (the page's box takes any number) is an error, not the default card.
  assert.match(JSON.parse(oomlint.analyze('a: 1', 'x.yaml', '', -4, 0)).error, /GPU's memory \(--vram\) must be a positive number/);
  assert.match(JSON.parse(oomlint.analyze('a: 1', 'x.yaml', 'RTX 3060 12GB', -4, 0)).error, /must be a positive number/);
  assert.match(JSON.parse(oomlint.analyze('a: 1', 'x.yaml', '', 0, -8)).error, /RAM \(--ram\) must be a positive number/);
  assert.ok(JSON.parse(oomlint.gpus()).length >= 40);
});

test('the module exposes the catalog, not the rule pages (the page fetches them), and survives hostile input', async () => {
  const oomlint = await loadModule();
  const rules = JSON.parse(oomlint.rules());
  assert.ok(rules.length >= 40);
  assert.equal(oomlint.explain, undefined);
  const deep = JSON.parse(oomlint.analyze('['.repeat(100000), 'deep.json', '', 0, 0));
  assert.equal(deep.files[0].diagnostics[0].code, 'OL103');
  const deepYaml = JSON.parse(oomlint.analyze('a: ' + '['.repeat(100000), 'deep.yaml', '', 0, 0));
  assert.equal(deepYaml.files[0].diagnostics[0].code, 'OL103');
});

test('the module reads ComfyUI workflows as the CLI does, and a PNG\'s workflow from its bytes', async () => {
  const oomlint = await loadModule();
  for (const name of ['comfyui/OL902-sd3-latent-sdxl-ui.json', 'comfyui/OL903-sdxl-vae-on-flux-api.json']) {
    const file = fixture(name);
    const text = fs.readFileSync(file, 'utf8');
    assert.deepEqual(JSON.parse(oomlint.analyze(text, file, 'RTX 3060 12GB', 0, 0)),
                     JSON.parse(runCli(['check', '--format', 'json', '--gpu', 'RTX 3060 12GB', file]).stdout), file);
  }
  // A PNG passed as a Uint8Array: the chunk's JSON comes back, and analysed it gives the PNG's own report.
  const png = fixture('comfyui/png-sdxl-prompt-text-chunk.png');
  const found = JSON.parse(oomlint.pngWorkflow(new Uint8Array(fs.readFileSync(png))));
  assert.equal(found.keyword, 'prompt');
  const fromJson = JSON.parse(oomlint.analyze(found.json, png, '', 0, 0));
  const fromPng = JSON.parse(runCli(['check', '--format', 'json', png]).stdout);
  assert.deepEqual(fromJson.files[0].diagnostics, fromPng.files[0].diagnostics);
  const stripped = JSON.parse(oomlint.pngWorkflow(new Uint8Array(fs.readFileSync(fixture('comfyui/png-without-workflow.png')))));
  assert.match(stripped.error, /carries no ComfyUI workflow/);
});

test('the module reads a job of several files as the CLI does (analyzeJob), and refuses malformed companions', async () => {
  const oomlint = await loadModule();
  const dir = path.join(sourceDir, 'tests/calibration/musubi-tuner/configs');
  const command = path.join(dir, 'framepack_default.sh');
  const dataset = path.join(dir, 'framepack_640_dataset.toml');
  const companions = JSON.stringify([{ path: 'framepack_640_dataset.toml', text: fs.readFileSync(dataset, 'utf8') }]);
  const fromModule = JSON.parse(oomlint.analyzeJob(fs.readFileSync(command, 'utf8'), command, '', companions, 'RTX 4090', 0, 0));
  const fromCli = JSON.parse(runCli(['check', '--format', 'json', '--gpu', 'RTX 4090', command, dataset]).stdout);
  assert.equal(fromModule.files.length, 1);
  assert.deepEqual(fromModule.files[0], fromCli.files[0]);
  // The dataset's resolution is read: without it the estimate differs.
  const alone = JSON.parse(oomlint.analyze(fs.readFileSync(command, 'utf8'), command, 'RTX 4090', 0, 0));
  assert.notEqual(alone.files[0].estimate.peak_bytes, fromModule.files[0].estimate.peak_bytes);
  for (const bad of ['{"path": "x"}', '[{"path": 1, "text": ""}]', 'not json']) {
    assert.match(JSON.parse(oomlint.analyzeJob('x', 'a.sh', '', bad, '', 0, 0)).error, /job's other files/);
  }
});

test('the module reads a workflow with the ComfyUI launch line it runs under (analyzeJob) as the CLI does', async (t) => {
  const oomlint = await loadModule();
  const workflow = fixture('comfyui/wan21-14b-720p-81-frames-api.json');
  const launch = path.join(os.tmpdir(), `oomlint-run-${process.pid}.sh`);
  fs.writeFileSync(launch, 'python main.py --novram\n');
  t.after(() => fs.rmSync(launch, { force: true }));
  const companions = JSON.stringify([{ path: launch, text: 'python main.py --novram\n' }]);
  const fromModule = JSON.parse(oomlint.analyzeJob(fs.readFileSync(workflow, 'utf8'), workflow, '', companions, 'RTX 3060 12GB', 0, 0));
  const fromCli = JSON.parse(runCli(['check', '--format', 'json', '--gpu', 'RTX 3060 12GB', workflow, launch]).stdout);
  assert.equal(fromModule.files.length, 1);
  assert.deepEqual(fromModule.files[0], fromCli.files[0]);
  assert.ok(fromModule.files[0].estimate.assumes.endsWith(`; ComfyUI launched with --novram (${launch})`));
  const alone = JSON.parse(oomlint.analyze(fs.readFileSync(workflow, 'utf8'), workflow, 'RTX 3060 12GB', 0, 0));
  assert.match(alone.files[0].estimate.assumes, /ComfyUI's defaults/);
  // What the page asks before it picks the main one of several files opened together.
  assert.equal(oomlint.inputKind(fs.readFileSync(workflow, 'utf8')), 'comfyui-workflow');
  assert.equal(oomlint.inputKind('python main.py --novram\n'), 'webui-args');
  assert.equal(oomlint.inputKind('job: extension\nconfig: {}\n'), 'ai-toolkit-job');
  assert.equal(oomlint.inputKind(fs.readFileSync(path.join(sourceDir, 'tests/calibration/musubi-tuner/configs/framepack_default.sh'), 'utf8')), 'musubi-tuner');
});

// The rules compiler leaves the text only `oomlint schema` prints out of the module's knowledge
// (--without-schema-text): the CLI's schema has a key's description, the module's bytes do not.
test('the module carries no key descriptions; the CLI\'s schema does', () => {
  const description = 'free-form; copied into the saved safetensors metadata';
  assert.ok(fs.readFileSync(path.join(sourceDir, 'rules/ai-toolkit/schema.yaml'), 'utf8').includes(description));
  const schema = runCli(['schema']);
  assert.equal(schema.code, 0);
  assert.ok(schema.stdout.includes(description));
  assert.ok(!fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')).includes(Buffer.from(description)));
});
