// The CI formats: gcc lines and GitHub workflow commands, over the corpus and hostile names.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { runCli, sharedDir, sharedSkip } from './helpers.mjs';

const examples = (sharedSkip ? [] : fs.readdirSync(path.join(sharedDir, 'corpus/ai-toolkit/examples')))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => path.join(sharedDir, 'corpus/ai-toolkit/examples', f));
// And the other trainers' files: command lines, TOMLs and GUI JSON of sd-scripts and musubi-tuner.
const trainerFiles = (sharedSkip ? [] : ['sd-scripts', 'musubi-tuner'])
  .flatMap((tool) => fs.readdirSync(path.join(sharedDir, 'corpus', tool))
    .filter((f) => /\.(sh|bat|ps1|toml|json)$/.test(f))
    .map((f) => path.join(sharedDir, 'corpus', tool, f)));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-formats-'));
// A valid job whose `train:` section gets the lines under test.
const job = (trainLines) =>
  'job: extension\nconfig:\n  name: t\n  process:\n    - type: sd_trainer\n      model:\n        name_or_path: black-forest-labs/FLUX.1-dev\n' +
  `        arch: flux\n      train:\n        dtype: bf16\n${trainLines}\n`;

test('gcc: one line per finding, the same findings as JSON, on every corpus config and trainer file', { skip: sharedSkip }, () => {
  assert.ok(examples.length >= 20 && trainerFiles.length >= 40);
  for (const file of [...examples, ...trainerFiles]) {
    const json = JSON.parse(runCli(['check', '--format', 'json', '--gpu', 'RTX 4090', file]).stdout);
    const gcc = runCli(['check', '--format', 'gcc', '--gpu', 'RTX 4090', file]);
    const lines = gcc.stdout.trimEnd().split('\n').filter(Boolean);
    const findings = lines.filter((l) => !l.startsWith(`${file}: note: estimate`) && !l.startsWith(`${file}: note: host RAM`));
    assert.equal(findings.length, json.files[0].diagnostics.length, file);
    json.files[0].diagnostics.forEach((d, i) => {
      const severity = d.severity === 'info' ? 'note' : d.severity;
      assert.ok(findings[i].startsWith(`${file}:${d.range.start.line}:${d.range.start.column}: ${severity}: `), findings[i]);
      assert.match(findings[i], new RegExp(`\\[${d.code} [a-z-]+\\]$`));
    });
    if (json.files[0].estimate) assert.match(gcc.stdout, new RegExp(`: note: estimate on RTX 4090 .* — ${json.files[0].estimate.verdict}`));
    if (json.files[0].estimate?.host) assert.match(gcc.stdout, /: note: host RAM: peak .* — unknown \(give --ram GIB for a verdict\)/);
  }
});

test('github: escapes newlines, commas and colons, drops columns on multi-line ranges, caps annotations', () => {
  const file = path.join(tmp, 'odd,name:1.yaml');
  fs.writeFileSync(file, job(Array.from({ length: 13 }, (_, i) => `        "bad\\nkey,${i}: x": 1`).join('\n')));
  const out = runCli(['check', '--format', 'github', file]).stdout;
  const commands = out.split('\n').filter((l) => l.startsWith('::'));
  assert.equal(commands.length, 10, out);
  for (const command of commands) {
    assert.match(command, /^::warning file=[^:,]*odd%2Cname%3A1\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=OL201 unknown-key::/);
    // The message keeps its comma and colon (only properties escape them) and escapes the newline.
    assert.match(command, /bad%0Akey,\d+: x/);
    assert.ok(!command.slice(2).includes('\n'));
  }
  assert.match(out, /^oomlint: 3 more findings not annotated/m);

  // A finding whose range spans lines: no column fields.
  const multi = path.join(tmp, 'multi.yaml');
  fs.writeFileSync(multi, job('        batch_size: "4\n          "'));
  const lines = runCli(['check', '--format', 'github', multi]).stdout.split('\n').filter((l) => l.startsWith('::'));
  const spanning = lines.filter((l) => {
    const m = l.match(/line=(\d+).*endLine=(\d+)/);
    return m && m[1] !== m[2];
  });
  assert.ok(spanning.length > 0, lines.join('\n'));
  for (const l of spanning) assert.doesNotMatch(l, /col=|endColumn=/);
});

test('exit codes follow --fail-on in every format', () => {
  const file = path.join(tmp, 'warn.yaml');
  fs.writeFileSync(file, job('        gradient_checkpoint: true'));
  for (const format of ['text', 'json', 'gcc', 'github']) {
    assert.equal(runCli(['check', '--format', format, file]).code, 0, format);
    assert.equal(runCli(['check', '--format', format, '--fail-on', 'warning', file]).code, 1, format);
    assert.equal(runCli(['check', '--format', format, '--fail-on', 'info', file]).code, 1, format);
    assert.equal(runCli(['check', '--format', format, '--fail-on', 'never', file]).code, 0, format);
  }
});
