// The golden snapshot: what users see, pinned byte for byte while the code underneath is rebuilt. For
// every docs example, fixture and corpus input (configs, logs, launch lines, workflows, other trainers'
// files), under the default GPU and two others: the `check --format json` report of that file and the
// `fix` output (the edited text, or "unchanged"). A change of behaviour shows as a readable diff of
// tests/golden/; an intended one is regenerated with
//   OOMLINT_UPDATE_GOLDEN=1 node --test tests/node/golden.test.mjs
// and named in the commit that makes it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { cli, sharedDir, sharedSkip, sourceDir } from './helpers.mjs';

const update = process.env.OOMLINT_UPDATE_GOLDEN === '1';
const goldenDir = path.join(sourceDir, 'tests/golden');
// The default (RTX 4090), a 12 GB card and an 80 GB card: "fits", "oom" and the plan all move with the card.
const gpus = [
  { label: 'default', args: [] },
  { label: 'RTX 3060 12GB', args: ['--gpu', 'RTX 3060 12GB'] },
  { label: 'A100 80GB', args: ['--gpu', 'A100 80GB'] },
];
const notInputs = /(^|\/)(README\.md|manifest\.yaml)$|\.expect$/;

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

// Relative to the source folder, as the CLI echoes them (../shared/corpus/… for the corpus).
const relative = (file) => path.relative(sourceDir, file).split(path.sep).join('/');
const inputsOf = (dir) => filesUnder(dir).map(relative).filter((file) => !notInputs.test(file));
const goldenPath = (input) => path.join(goldenDir, `${input.replace(/^\.\.\/shared\//, 'shared/')}.json`);

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { cwd: sourceDir, env: { ...process.env, NO_COLOR: '' } });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

// Runs the jobs two at a time (the machines have two cores) and keeps their results in order.
async function pool(jobs, width = 2) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

// The snapshot of each input: per GPU, its file report and what `fix` makes of it.
async function snapshot(inputs) {
  const byInput = new Map(inputs.map((input) => [input, {}]));
  for (const gpu of gpus) {
    const checked = await run(['check', '--format', 'json', '--fail-on', 'never', ...gpu.args, ...inputs]);
    // 2 when an input cannot be parsed (its file report says so); anything else is a failure of the run.
    assert.ok([0, 2].includes(checked.code), `check over ${inputs.length} inputs (${gpu.label}): exit ${checked.code}\n${checked.stderr}`);
    const report = JSON.parse(checked.stdout);
    assert.equal(report.files.length, inputs.length, 'one file report per input');
    report.files.forEach((file, i) => {
      byInput.get(inputs[i])[gpu.label] = { report: file };
    });
  }
  const jobs = [];
  for (const input of inputs) {
    for (const gpu of gpus) {
      const entry = byInput.get(input)[gpu.label];
      if (entry.report.kind === 'log') continue;  // `fix` writes configs
      jobs.push(async () => {
        const fixed = await run(['fix', ...gpu.args, input]);
        const original = fs.readFileSync(path.join(sourceDir, input), 'utf8');
        entry.fix = { exit: fixed.code, text: fixed.stdout === original ? 'unchanged' : fixed.stdout, stderr: fixed.stderr };
      });
    }
  }
  await pool(jobs);
  return byInput;
}

async function compare(t, inputs) {
  const byInput = await snapshot(inputs);
  const changed = [];
  for (const [input, result] of byInput) {
    const text = `${JSON.stringify(result, null, 1)}\n`;
    const file = goldenPath(input);
    if (update) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    } else if (!fs.existsSync(file)) {
      changed.push(`${input}: no snapshot (a new input: OOMLINT_UPDATE_GOLDEN=1 writes it)`);
    } else if (fs.readFileSync(file, 'utf8') !== text) {
      changed.push(`${input}: differs from ${relative(file)}`);
      if (changed.length === 1) fs.writeFileSync(`${file}.actual`, text);  // to diff by hand
    }
  }
  t.diagnostic(`${inputs.length} inputs × ${gpus.length} GPUs${update ? ', snapshots written' : ''}`);
  assert.deepEqual(changed, [], 'the first difference is written beside its snapshot as .actual');
}

test('docs examples and fixtures match their golden snapshot', async (t) => {
  await compare(t, [...inputsOf(path.join(sourceDir, 'docs/examples')), ...inputsOf(path.join(sourceDir, 'tests/fixtures'))]);
});

test('the shared corpus matches its golden snapshot', { skip: sharedSkip }, async (t) => {
  await compare(t, inputsOf(path.join(sharedDir, 'corpus')));
});

test('no snapshot is left without its input', () => {
  const inputs = new Set([
    ...inputsOf(path.join(sourceDir, 'docs/examples')),
    ...inputsOf(path.join(sourceDir, 'tests/fixtures')),
    ...(sharedSkip ? [] : inputsOf(path.join(sharedDir, 'corpus'))),
  ].map(goldenPath));
  // Without the corpus its snapshots cannot be matched to inputs: only the project's own are checked.
  const stale = filesUnder(goldenDir).filter((file) => file.endsWith('.json') && !inputs.has(file))
    .filter((file) => !sharedSkip || !relative(file).startsWith('tests/golden/shared/'));
  assert.deepEqual(stale.map(relative), []);
});
