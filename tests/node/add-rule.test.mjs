// scripts/add-rule.py: a rule's catalog entry, check (registered), page (and index row) and fixture at once,
// run on a copy of the files it edits so the tree stays as it is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { sourceDir } from './helpers.mjs';

const edited = ['scripts/add-rule.py', 'rules/catalog.yaml', 'core/systems/aitk/checks/checks.cpp',
  'core/CMakeLists.txt', 'docs/rules/README.md'];

function copyTree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-add-rule-'));
  for (const file of edited) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(sourceDir, file), path.join(root, file));
  }
  fs.mkdirSync(path.join(root, 'tests/fixtures/rules'), { recursive: true });
  return root;
}

const run = (root, args) => spawnSync('python3', [path.join(root, 'scripts/add-rule.py'), ...args], { encoding: 'utf8' });

// The newest trainer check (the largest OL4xx code in the catalog) and the code after it, which add-rule takes.
const catalogCodes = fs.readFileSync(path.join(sourceDir, 'rules/catalog.yaml'), 'utf8').match(/code: OL4\d\d/g).map((c) => c.slice(6));
const last = catalogCodes.sort().at(-1);
const next = `OL${Number(last.slice(2)) + 1}`;
const lastName = fs.readFileSync(path.join(sourceDir, 'rules/catalog.yaml'), 'utf8')
  .match(new RegExp(`code: ${last}\\n\\s+name: ([a-z0-9-]+)`))[1];
const camel = (name) => name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

test('add-rule writes the four pieces, in code order, and registers the check', () => {
  const root = copyTree();
  const r = run(root, [next, 'sample-too-large', 'warning', 'A sample size beyond the model']);
  assert.equal(r.status, 0, r.stderr);
  const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
  const catalog = read('rules/catalog.yaml');
  assert.ok(catalog.indexOf(`code: ${last}`) < catalog.indexOf(`code: ${next}`));
  assert.ok(catalog.indexOf(`code: ${next}`) < catalog.indexOf('code: OL501'), 'inserted before the next code');
  assert.ok(catalog.indexOf(`code: ${next}`) < catalog.indexOf('# ---- OL5xx'), 'and before the next section\'s heading');
  assert.match(read('core/systems/aitk/checks/sample_too_large_check.cpp'), new RegExp(`^// ${next} sample-too-large: `));
  assert.match(read('core/systems/aitk/checks/sample_too_large_check.cpp'), /void checkSampleTooLarge\(const AitkCheckContext& c, Findings& findings\)/);
  const registry = read('core/systems/aitk/checks/checks.cpp');
  assert.match(registry, new RegExp(`^void check${camel(lastName)}\\(const AitkCheckContext&, Findings&\\);\\nvoid checkSampleTooLarge\\(const AitkCheckContext&, Findings&\\);$`, 'm'));
  // The last of the trainer checks, after the newest one.
  assert.match(registry, new RegExp(`\\{"${lastName}", check${camel(lastName)}\\}, +// ${last}\\n {6}\\{"sample-too-large", checkSampleTooLarge\\}, +// ${next}\\n {2}\\};`));
  assert.match(read('core/CMakeLists.txt'), /systems\/aitk\/checks\/sample_too_large_check\.cpp/);
  const page = read(`docs/rules/${next}.md`);
  for (const section of ['## What it does', '## Why it matters', '## Example', '## Use instead', '## Source']) assert.ok(page.includes(section), section);
  const index = read('docs/rules/README.md');
  assert.ok(index.indexOf(`[${last}]|`) < index.indexOf(`[${next}]|`) && index.indexOf(`[${next}]|`) < index.indexOf('[OL501]|'));
  assert.match(index, new RegExp(`^\\[${next}\\]: ${next}\\.md$`, 'm'));
  assert.match(read(`tests/fixtures/rules/${next}-sample-too-large.yaml`), new RegExp(`# expect: ${next}:\\d+ "`));

  const again = run(root, [next, 'sample-too-large', 'warning', 'Twice']);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, new RegExp(`${next} is already in rules/catalog\\.yaml`));
  fs.rmSync(root, { recursive: true, force: true });
});

test('add-rule lists a check between others in code order, among the trainer checks, and its file in name order', () => {
  const root = copyTree();
  const r = run(root, ['OL320', 'fine-bar', 'info', 'T']);
  assert.equal(r.status, 0, r.stderr);
  const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
  const registry = read('core/systems/aitk/checks/checks.cpp');
  assert.match(registry, /\/\/ OL313\n {6}\{"fine-bar", checkFineBar\}, +\/\/ OL320\n {6}\{"dtype-defaults-to-fp32"/);
  assert.match(registry, /^void checkFineBar\(const AitkCheckContext&, Findings&\);\nvoid checkDtypeDefaultsToFp32\(/m);
  assert.ok(registry.indexOf('{"fine-bar"') > registry.indexOf('aitkTrainerChecks()'), 'not among the job checks');
  assert.match(read('core/CMakeLists.txt'), /checks\/ema_version_check\.cpp\n {2}systems\/aitk\/checks\/fine_bar_check\.cpp\n {2}systems\/aitk\/checks\/flux_only_option_check\.cpp/);
  fs.rmSync(root, { recursive: true, force: true });
});

test('add-rule refuses a malformed code or name, and --dry-run writes nothing', () => {
  const root = copyTree();
  assert.match(run(root, ['OL42', 'x', 'info', 'T']).stderr, /three digits/);
  assert.match(run(root, [next, 'Not_Kebab', 'info', 'T']).stderr, /kebab-case/);
  const before = fs.readFileSync(path.join(root, 'rules/catalog.yaml'), 'utf8');
  const dry = run(root, [next, 'dry-run-rule', 'info', 'T', '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, new RegExp(`=== docs/rules/${next}\\.md`));
  assert.equal(fs.readFileSync(path.join(root, 'rules/catalog.yaml'), 'utf8'), before);
  assert.ok(!fs.existsSync(path.join(root, `docs/rules/${next}.md`)));
  fs.rmSync(root, { recursive: true, force: true });
});
