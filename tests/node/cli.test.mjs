// The native CLI's contract (DESIGN.md): commands, formats, stdin, several files, exit codes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { fixture, runCli } from './helpers.mjs';

const clean = fixture('clean/base-flux-lora.yaml');
const cleanText = fs.readFileSync(clean, 'utf8');
const typo = cleanText.replace('gradient_checkpointing: true', 'gradient_checkpoint: true');
const broken = cleanText.replace('name_or_path: black-forest-labs/FLUX.1-dev', 'name_or_path: "black-forest-labs/FLUX.1-dev');

test('a clean config exits 0 and says so', () => {
  const r = runCli(['check', clean]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no problems found in 1 file/);
});

test('a warning shows the source line and an underline under the exact range', () => {
  const r = runCli(['check', '--fail-on', 'warning', '-'], typo);
  assert.equal(r.code, 1);
  const lines = r.stdout.split('\n');
  const header = lines.findIndex((l) => l.includes('[OL201 unknown-key]'));
  assert.ok(header >= 0, r.stdout);
  assert.match(lines[header], /^<stdin>:30:9: warning: unknown key `gradient_checkpoint` .*did you mean `gradient_checkpointing`\?/);
  assert.match(lines[header + 2], /^30 \|         gradient_checkpoint: true$/);
  assert.match(lines[header + 3], /^   \|         \^~{18}$/);
  assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour when stdout is not a terminal');
});

test('warnings do not fail by default; --fail-on decides', () => {
  assert.equal(runCli(['check', '-'], typo).code, 0);
  assert.equal(runCli(['check', '--fail-on=warning', '-'], typo).code, 1);
  assert.equal(runCli(['check', '--fail-on', 'never', '-'], typo).code, 0);
});

test('colour on demand', () => {
  assert.match(runCli(['check', '--color=always', '--fail-on=never', '-'], typo).stdout, /\x1b\[1;33mwarning/);
});

test('an unparsable config exits 2 with a located syntax error', () => {
  const r = runCli(['check', '-'], broken);
  assert.equal(r.code, 2);
  assert.match(r.stdout, /<stdin>:36:23: error: unclosed quote/);
});

test('several files, one JSON object, each file reported', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-'));
  const bad = path.join(dir, 'bad.yaml');
  fs.writeFileSync(bad, cleanText.replace('batch_size: 1', 'batch_size: 0'));
  const r = runCli(['check', '--format', 'json', clean, bad]);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.files.map((f) => f.path), [clean, bad]);
  assert.equal(report.files[0].diagnostics.length, 0);
  const d = report.files[1].diagnostics[0];
  assert.equal(d.code, 'OL204');
  assert.equal(d.path, 'config.process[0].train.batch_size');
  assert.deepEqual(d.range, { start: { line: 25, column: 21 }, end: { line: 25, column: 22 } });
});

test('the JSON report has exactly the contract field names', () => {
  const text = cleanText.replace('optimizer: adamw8bit', 'optimizer: adamw8bits').replace('lr: 1e-4', 'lr: 1e-4\n        gradient_checkpoint: true');
  const r = runCli(['check', '--format', 'json', '-'], text);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(report), ['tool', 'files']);
  assert.deepEqual(Object.keys(report.tool), ['name', 'version']);
  assert.equal(report.tool.name, 'oomlint');
  const file = report.files[0];
  assert.deepEqual(Object.keys(file), ['path', 'kind', 'diagnostics', 'estimate', 'plan', 'host_plan']);
  assert.equal(file.kind, 'ai-toolkit-job');
  for (const d of file.diagnostics) {
    assert.deepEqual(Object.keys(d).filter((k) => k !== 'fix'), ['code', 'severity', 'message', 'path', 'range']);
    assert.ok(['error', 'warning', 'info'].includes(d.severity));
    assert.deepEqual(Object.keys(d.range), ['start', 'end']);
    assert.deepEqual(Object.keys(d.range.start), ['line', 'column']);
    if (d.fix) assert.deepEqual(Object.keys(d.fix), ['path', 'from', 'to']);
  }
  const enumError = file.diagnostics.find((d) => d.code === 'OL203');
  assert.deepEqual(enumError.fix, { path: 'config.process[0].train.optimizer', from: 'adamw8bits', to: 'adamw8bit' });
});

test('usage errors and unreadable files exit 2', () => {
  assert.equal(runCli([]).code, 2);
  assert.equal(runCli(['check']).code, 2);
  assert.equal(runCli(['check', '--format', 'xml', clean]).code, 2);
  assert.equal(runCli(['frobnicate']).code, 2);
  const missing = runCli(['check', '/nonexistent/config.yaml']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read \/nonexistent\/config.yaml/);
  assert.equal(missing.stdout, '');  // no "no problems found in 0 files" beside the error
  assert.equal(runCli(['check', path.dirname(clean)]).code, 2);
});

test('explain prints a rule page by code or name; rules lists them all', () => {
  const byCode = runCli(['explain', 'OL201']);
  assert.equal(byCode.code, 0);
  assert.match(byCode.stdout, /^# OL201 unknown-key/);
  assert.equal(runCli(['explain', 'unknown-key']).stdout, byCode.stdout);
  assert.equal(runCli(['explain', 'OL999']).code, 2);
  const rules = runCli(['rules']);
  assert.equal(rules.code, 0);
  assert.ok(rules.stdout.split('\n').filter(Boolean).length >= 40);
  assert.match(runCli(['--version']).stdout, /^oomlint \d+\.\d+\.\d+/);
});

test('binary junk and a huge file are reported, not crashed on', () => {
  const junk = runCli(['check', '-'], Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x41]));
  assert.equal(junk.code, 2);
  assert.match(junk.stdout, /invalid UTF-8/);
  // A file, not stdin: the CLI stops reading past the limit, which would break a writer's pipe.
  const big = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-')), 'huge.yaml');
  fs.writeFileSync(big, 'a: ' + 'x'.repeat(9 * 1024 * 1024) + '\n');
  const huge = runCli(['check', big]);
  assert.equal(huge.code, 2);
  assert.match(huge.stdout, /input limit/);
});

test('--gpu prints the per-phase estimate, and the JSON estimate and plan follow the contract', () => {
  const heavy = cleanText.replace('batch_size: 1', 'batch_size: 8');
  const text = runCli(['check', '--gpu', 'rtx 4090', '-'], heavy);
  assert.equal(text.code, 1, text.stdout);
  assert.match(text.stdout, /estimate on RTX 4090 \(\d+\.\d GiB\): peak \d+\.\d GiB \(\d+\.\d–\d+\.\d\) in train_step — oom/);
  assert.match(text.stdout, /train_step +\d+\.\d GiB +[█·│]+ +← peak/);
  assert.match(text.stdout, /rollback plan, in order/);
  assert.match(text.stdout, /\[OL501 estimated-oom\]/);
  const json = JSON.parse(runCli(['check', '--format', 'json', '--vram', '24', '-'], heavy).stdout);
  const { estimate, plan } = json.files[0];
  assert.deepEqual(Object.keys(estimate).slice(0, 7), ['gpu', 'peak_bytes', 'peak_phase', 'verdict', 'low_bytes', 'high_bytes', 'uncertainty_bytes']);
  assert.ok(estimate.low_bytes <= estimate.peak_bytes && estimate.peak_bytes <= estimate.high_bytes);
  assert.equal(estimate.assumes, 'AI Toolkit at 27a03a9 (2026-08-21)');
  assert.deepEqual(estimate.gpu, { name: '24 GiB', vram_bytes: 24 * 2 ** 30 });
  assert.equal(estimate.verdict, 'oom');
  assert.ok(Number.isInteger(estimate.peak_bytes));
  const names = estimate.phases.map((p) => p.name);
  for (const phase of ['load', 'quantize', 'latent_cache', 'baseline_sample', 'train_step', 'sample']) assert.ok(names.includes(phase), phase);
  for (const p of estimate.phases) {
    assert.deepEqual(Object.keys(p), ['name', 'peak_bytes', 'low_bytes', 'high_bytes', 'uncertainty_bytes', 'range', 'components']);
    // The range is the sum of its named reasons.
    const below = p.range.reduce((sum, r) => sum + r.below_bytes, 0);
    const above = p.range.reduce((sum, r) => sum + r.above_bytes, 0);
    assert.ok(Math.abs(p.peak_bytes - below - p.low_bytes) <= p.range.length + 1, p.name);
    assert.ok(Math.abs(p.peak_bytes + above - p.high_bytes) <= p.range.length + 1, p.name);
    for (const c of p.components) assert.deepEqual(Object.keys(c), ['name', 'bytes', 'how']);
  }
  assert.ok(plan.length >= 1);
  assert.deepEqual(Object.keys(plan[0]), ['rank', 'path', 'from', 'to', 'saves_bytes', 'peak_bytes_after', 'high_bytes_after', 'top_only', 'fits_after', 'needed', 'why', 'edit']);
  assert.equal(plan[0].path, 'config.process[0].train.batch_size');
  assert.deepEqual([plan[0].from, plan[0].to], [8, 1]);
  // The edit replaces exactly the value's characters with the new value.
  const line = heavy.split('\n')[plan[0].edit.range.start.line - 1];
  assert.equal(line.slice(plan[0].edit.range.start.column - 1, plan[0].edit.range.end.column - 1), '8');
  assert.equal(plan[0].edit.text, '1');
  assert.ok(plan.some((s) => s.needed));
});

test('--ram: the host-RAM estimate, its verdict and its plan, in every format', () => {
  // The card the fixture names (48 GiB): room for the bf16 transformer Wan quantizes on the GPU, so the
  // host-RAM plan may offload less.
  const offload = fixture('rules/OL504-estimated-host-ram-oom.yaml');
  // Without the RAM: the figures, no verdict, no plan, no finding.
  const unknown = JSON.parse(runCli(['check', '--format', 'json', offload]).stdout).files[0];
  assert.equal(unknown.estimate.host.verdict, 'unknown');
  assert.equal(unknown.estimate.host.ram_bytes, null);
  assert.deepEqual(unknown.host_plan, []);
  assert.ok(!unknown.diagnostics.some((d) => d.code === 'OL504'));

  const file = JSON.parse(runCli(['check', '--format', 'json', '--vram', '48', '--ram', '24', offload]).stdout).files[0];
  const host = file.estimate.host;
  assert.deepEqual(Object.keys(host), ['ram_bytes', 'peak_bytes', 'low_bytes', 'high_bytes', 'uncertainty_bytes', 'file_backed_bytes',
    'peak_phase', 'verdict', 'verdict_phase', 'log_killed', 'notes', 'phases']);
  assert.equal(host.ram_bytes, 24 * 2 ** 30);
  assert.equal(host.verdict, 'oom');
  assert.equal(host.verdict_phase, 'latent_cache');
  assert.equal(host.low_bytes + host.high_bytes, 2 * host.peak_bytes);
  for (const p of host.phases) assert.deepEqual(Object.keys(p), ['name', 'peak_bytes', 'uncertainty_bytes', 'file_backed_bytes', 'components']);
  const mapped = host.phases.flatMap((p) => p.components).filter((c) => c.file_backed);
  assert.ok(mapped.length > 0 && mapped.every((c) => c.name === 'transformer as loaded' || c.name.endsWith('as loaded')));
  assert.equal(file.host_plan[0].path, 'config.process[0].model.layer_offloading_transformer_percent');
  assert.ok(file.diagnostics.some((d) => d.code === 'OL504' && d.path === file.host_plan[0].path));

  const text = runCli(['check', '--vram', '48', '--ram', '24', offload]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /host RAM on a 24 GiB machine: peak \d+\.\d GiB ± \d+\.\d GiB in load — oom/);
  assert.match(text.stdout, /latent_cache +\d+\.\d GiB +[█·│]+/);
  assert.match(text.stdout, /host-RAM plan, in order/);
  assert.match(runCli(['check', '--format', 'gcc', '--vram', '48', '--ram', '24', offload]).stdout, /: note: host RAM on a 24 GiB machine: .* — oom/);
  const github = runCli(['check', '--format', 'github', '--vram', '48', '--ram', '24', offload]).stdout;
  assert.match(github, /::error .*estimated out of host RAM/);
  assert.match(github, /oomlint: .*: host RAM on a 24 GiB machine/);
  assert.match(runCli(['check', '--format', 'junit', '--vram', '48', '--ram', '24', offload]).stdout, /host RAM on a 24 GiB machine/);
  const sarif = JSON.parse(runCli(['check', '--format', 'sarif', '--vram', '48', '--ram', '24', offload]).stdout);
  const estimate = sarif.runs[0].properties.oomlint.estimates[0];
  assert.equal(estimate.host.verdict, 'oom');
  assert.equal(estimate.host.plan[0].path, file.host_plan[0].path);

  // fix writes the host plan's needed step; a bad size is a usage error.
  const fixed = runCli(['fix', '--vram', '48', '--ram', '24', offload]);
  assert.match(fixed.stdout, /layer_offloading_transformer_percent: 0 /);
  assert.equal(runCli(['check', '--ram', 'lots', clean]).code, 2);
  assert.equal(runCli(['check', '--ram', '-4', clean]).code, 2);
});

test('unknown GPUs and bad --vram are usage errors with a suggestion', () => {
  const r = runCli(['check', '--gpu', 'RTX 4909', clean]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown GPU 'RTX 4909'; did you mean/);
  assert.equal(runCli(['check', '--vram', 'lots', clean]).code, 2);
  // Both: the named card's kind with the memory given (an APU's carve-out, a modded card).
  const both = runCli(['check', '--vram', '20', '--gpu', 'RTX 3090', '--format', 'json', clean]);
  assert.notEqual(both.code, 2, both.stderr);
  assert.deepEqual(JSON.parse(both.stdout).files[0].estimate.gpu, { name: 'RTX 3090', vram_bytes: 20 * 2 ** 30 });
  // Together, each is still checked: an unknown card, a size that is no size.
  assert.match(runCli(['check', '--vram', '20', '--gpu', 'RTX 4909', clean]).stderr, /unknown GPU 'RTX 4909'/);
  assert.equal(runCli(['check', '--vram', '20', '--gpu', 'RTX 4909', clean]).code, 2);
  assert.equal(runCli(['check', '--vram', '-3', '--gpu', 'RTX 3090', clean]).code, 2);
  const gpus = runCli(['gpus']);
  assert.equal(gpus.code, 0);
  assert.ok(gpus.stdout.split('\n').filter(Boolean).length >= 40);
  assert.match(gpus.stdout, /RTX 4090 .*\(default\)/);
});

test('fix writes the needed steps and leaves every other byte alone', () => {
  const heavy = cleanText.replace('gradient_checkpointing: true', 'gradient_checkpointing: false  # keep me');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-'));
  const file = path.join(dir, 'heavy.yaml');
  fs.writeFileSync(file, heavy);
  assert.equal(runCli(['check', '--gpu', 'RTX 4090', file]).code, 1);
  const r = runCli(['fix', '--gpu', 'RTX 4090', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /set config\.process\[0\]\.train\.gradient_checkpointing: false → true/);
  assert.equal(r.stdout, heavy.replace('gradient_checkpointing: false  # keep me', 'gradient_checkpointing: true  # keep me'));
  assert.equal(runCli(['fix', '--gpu', 'RTX 4090', '--in-place', file]).code, 0);
  assert.equal(runCli(['check', '--gpu', 'RTX 4090', file]).code, 0);
  const untouched = runCli(['fix', '--gpu', 'RTX 4090', clean]);
  assert.equal(untouched.stdout, cleanText);
  assert.match(untouched.stderr, /nothing to change/);
});

test('a log is recognised from its content and diagnosed; --log attaches it to the config', () => {
  const log = fixture('diagnosis/OL601-OL605-baseline-sample.log');
  const text = runCli(['check', log]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /:31:1: error: out of memory during baseline_sample: .*\[OL601 out-of-memory-in-log\]/);
  const json = JSON.parse(runCli(['check', '--format', 'json', log]).stdout);
  const file = json.files[0];
  assert.equal(file.kind, 'log');
  assert.deepEqual(Object.keys(file.log), ['oom', 'kind', 'phase', 'step', 'gpu_state_suspect', 'numbers', 'suspected', 'evidence']);
  assert.equal(file.log.suspected, false);
  assert.deepEqual(file.log.evidence, []);
  assert.deepEqual(file.log.numbers, {
    tried_to_allocate: 1610612736, total_capacity: 25286619955, free: 1095216660,
    allocated_by_pytorch: 19542101197, reserved_unallocated: 3661459620, process_in_use: 24169928458,
  });
  const both = JSON.parse(runCli(['check', '--format', 'json', '--log', log, clean]).stdout);
  assert.deepEqual(both.files.map((f) => f.kind), ['log', 'ai-toolkit-job']);
  const config = both.files[1];
  assert.equal(config.log.phase, 'baseline_sample');
  assert.equal(config.estimate.gpu.vram_bytes, 25286619955, "the log's capacity is the card's");
  const ok = runCli(['check', fixture('diagnosis/OL604-config-error.log')]);
  assert.equal(ok.code, 0);
  assert.match(ok.stdout, /not for lack of memory/);
  // An OOM the log only suggests: a warning (exit 0 at the default fail level), with its evidence.
  const killed = runCli(['check', '--format', 'json', fixture('diagnosis/OL608-killed-mid-training.log')]);
  assert.equal(killed.code, 0);
  const suspected = JSON.parse(killed.stdout).files[0];
  assert.deepEqual([suspected.log.oom, suspected.log.suspected, suspected.log.kind, suspected.log.phase, suspected.log.step],
    [false, true, 'host_ram', 'train_step', 125]);
  assert.deepEqual(suspected.log.evidence.map((e) => e.line), [6, 5]);
  assert.equal(suspected.diagnostics[0].code, 'OL608');
});

test('standard input among several files is read once, for the job and for its own analysis', () => {
  // It was read twice: once to share with the other files, then again, empty, for its own report.
  const r = runCli(['check', '-', clean], cleanText);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /no problems found in 2 files/);
});

test('a log is read in one pass, past the first 64 KiB that say it is one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-log-'));
  const log = fs.readFileSync(fixture('diagnosis/OL601-OL605-baseline-sample.log'), 'utf8');
  const firstLine = log.indexOf('\n') + 1;
  // 200 KB of lines that say nothing, between the log's first line and the rest of it.
  const long = path.join(dir, 'long.log');
  fs.writeFileSync(long, log.slice(0, firstLine) + 'nothing to report here, just a long run\n'.repeat(5000) + log.slice(firstLine));
  const r = runCli(['check', long]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /long\.log:5031:1: error: out of memory during baseline_sample/);  // the fixture's line 31
  fs.rmSync(dir, { recursive: true });
});

test('a WebUI launch line is its own input kind: flags checked, generation estimated, fix writes the flag', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-webui-'));
  const bat = path.join(dir, 'webui-user.bat');
  const text = '@echo off\r\nset COMMANDLINE_ARGS=--xformers --medvarm\r\ncall webui.bat\r\n' +
    'Steps: 20, Size: 512x512, Model: v1-5-pruned-emaonly, ControlNet 0: "Module: canny, Model: control_v11p_sd15_canny, Low Vram: False"\r\n';
  fs.writeFileSync(bat, text);
  // Borderline, not out of memory, since the VAE decode comes from the decoder's structure (0.375 GiB
  // of live maps at 512²; the fitted figure gave 0.62): 3.8 GiB of the card's 3.9 with every model
  // resident, only the upper part of the range over it — a warning, so no error exit.
  const r = runCli(['check', bat, '--gpu', 'GTX 1050 Ti', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(runCli(['check', bat, '--gpu', 'GTX 1050 Ti', '--fail-on', 'warning']).code, 1);
  const file = JSON.parse(r.stdout).files[0];
  assert.equal(file.kind, 'webui-args');
  const typo = file.diagnostics.find((d) => d.code === 'OL701');
  assert.ok(typo, JSON.stringify(file.diagnostics));
  assert.deepEqual(typo.range, { start: { line: 2, column: 33 }, end: { line: 2, column: 42 } });
  assert.equal(file.estimate.verdict, 'borderline');
  assert.ok(file.estimate.phases.some((p) => p.name === 'denoise'));
  const needed = file.plan.filter((s) => s.needed);
  assert.equal(needed.length, 1);
  assert.equal(needed[0].to, '--xformers --medvram', 'the misspelt flag is replaced, not kept');

  const fixed = runCli(['fix', bat, '--gpu', 'GTX 1050 Ti']);
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.equal(fixed.stdout, text.replace('--medvarm', '--medvram'), 'only the flag changed; CRLF kept');
  fs.writeFileSync(bat, fixed.stdout);
  assert.equal(JSON.parse(runCli(['check', bat, '--gpu', 'GTX 1050 Ti', '--format', 'json']).stdout).files[0].estimate.verdict, 'fits');
  // The same input in SARIF keeps the rule's help.
  const sarif = JSON.parse(runCli(['check', bat, '--gpu', 'GTX 1050 Ti', '--format', 'sarif']).stdout);
  assert.ok(sarif.runs[0].tool.driver.rules.every((rule) => rule.helpUri));
  fs.rmSync(dir, { recursive: true });
});
