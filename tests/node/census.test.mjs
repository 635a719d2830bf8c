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
  }
});
