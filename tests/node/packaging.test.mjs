// Distribution (docs/ci.md): `cmake --install`, the CPack .deb, the GitHub Action, the pre-commit hook,
// and the copy-paste examples of docs/ci.md against all of them. Needs a configured and built release
// folder: the one holding OOMLINT_CLI, or OOMLINT_BUILD_DIR.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import test from 'node:test';

import { cli, sourceDir } from './helpers.mjs';

// The web page's npm dependencies provide a YAML parser (scripts/build-web.sh installs them); without
// them the tests that parse YAML are skipped, not failed.
let YAML = null;
try {
  YAML = createRequire(path.join(sourceDir, 'web/package.json'))('yaml');
} catch {}
const needsYaml = YAML ? {} : { skip: 'the yaml npm package is missing: run npm ci in web/' };

const cliPath = path.resolve(cli);
const buildDir = path.resolve(process.env.OOMLINT_BUILD_DIR ?? path.join(path.dirname(cliPath), '..'));
const version = fs.readFileSync(path.join(sourceDir, 'CMakeLists.txt'), 'utf8').match(/project\(oomlint VERSION (\S+)/)[1];
const action = YAML?.parse(fs.readFileSync(path.join(sourceDir, 'action.yml'), 'utf8'));
const hooks = YAML?.parse(fs.readFileSync(path.join(sourceDir, '.pre-commit-hooks.yaml'), 'utf8'));
const ciDoc = fs.readFileSync(path.join(sourceDir, 'docs/ci.md'), 'utf8');

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.error) throw r.error;
  return r;
}
function ok(command, args, options) {
  const r = run(command, args, options);
  assert.equal(r.status, 0, `${command} ${args.join(' ')}\n${r.stdout}${r.stderr}`);
  return r.stdout;
}
const hasProgram = (name) => run('sh', ['-c', `command -v ${name}`]).status === 0;

// A temp folder removed when the test ends, whatever its outcome.
function tempDir(t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `oomlint-${prefix}-`));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('cmake --install puts the CLI in bin/ and the docs in share/doc/oomlint, nothing else', (t) => {
  const prefix = tempDir(t, 'install');
  ok('cmake', ['--install', buildDir, '--prefix', prefix]);
  assert.deepEqual(fs.readdirSync(prefix).sort(), ['bin', 'share']);
  assert.deepEqual(fs.readdirSync(path.join(prefix, 'bin')), ['oomlint'], 'developer tools and tests stay uninstalled');
  assert.equal(ok(path.join(prefix, 'bin/oomlint'), ['--version']).trim(), `oomlint ${version}`);
  const doc = path.join(prefix, 'share/doc/oomlint');
  for (const file of ['README.md', 'index.md', 'ci.md', 'json-report.md', 'rules/OL201.md', 'rules/README.md', 'examples/wan21-video-lora.yaml']) {
    assert.ok(fs.existsSync(path.join(doc, file)), file);
  }
  assert.equal(fs.readFileSync(path.join(doc, 'README.md'), 'utf8'), fs.readFileSync(path.join(sourceDir, 'README.md'), 'utf8'));
  assert.equal(fs.readFileSync(path.join(doc, 'index.md'), 'utf8'), fs.readFileSync(path.join(sourceDir, 'docs/README.md'), 'utf8'));
});

test('cpack -G DEB builds an oomlint package whose Depends match what the binary links', (t) => {
  if (!hasProgram('dpkg-deb')) return t.skip('dpkg-deb is not installed');
  const out = tempDir(t, 'deb');
  ok('cpack', ['--config', path.join(buildDir, 'CPackConfig.cmake'), '-G', 'DEB', '-B', out]);
  const debs = fs.readdirSync(out).filter((f) => f.endsWith('.deb'));
  assert.equal(debs.length, 1, fs.readdirSync(out).join(' '));
  assert.match(debs[0], new RegExp(`^oomlint_${version.replaceAll('.', '\\.')}_[a-z0-9]+\\.deb$`));
  const deb = path.join(out, debs[0]);

  const files = ok('dpkg-deb', ['-c', deb]).split('\n').map((l) => l.split(/\s+/).pop());
  assert.ok(files.includes('./usr/bin/oomlint'), files.join('\n'));
  assert.ok(files.includes('./usr/share/doc/oomlint/rules/OL201.md'));
  assert.deepEqual(files.filter((f) => f.startsWith('./usr/bin/') && f !== './usr/bin/'), ['./usr/bin/oomlint']);

  const field = (name) => ok('dpkg-deb', ['-f', deb, name]).trim();
  assert.equal(field('Package'), 'oomlint');
  assert.equal(field('Version'), version);
  assert.equal(field('Section'), 'devel');
  assert.match(field('Maintainer'), /<[^@\s]+@[^>\s]+>/);
  // Built with OOMLINT_STATIC_RUNTIME (the default) the CLI is a static PIE that needs no shared object, and the
  // package depends on nothing; built without, on glibc and the C++ runtime.
  const needed = ok('readelf', ['-d', cliPath]);
  if (!/\(NEEDED\)/.test(needed)) {
    assert.equal(field('Depends'), '');
  } else {
    assert.match(field('Depends'), /(^|, )libc6\b/);
    if (/\[libstdc\+\+\.so/.test(needed)) assert.match(field('Depends'), /(^|, )libstdc\+\+6\b/);
    else assert.doesNotMatch(field('Depends'), /libstdc\+\+/);
  }

  // The packaged (stripped) binary still runs.
  const root = path.join(out, 'root');
  ok('dpkg-deb', ['-x', deb, root]);
  assert.equal(ok(path.join(root, 'usr/bin/oomlint'), ['--version']).trim(), `oomlint ${version}`);
});

test('action.yml is a composite action whose steps are complete and consistent', needsYaml, () => {
  assert.equal(typeof action.name, 'string');
  assert.equal(typeof action.description, 'string');
  assert.equal(action.inputs.paths.required, true);
  for (const [name, input] of Object.entries(action.inputs)) assert.equal(typeof input.description, 'string', name);
  assert.equal(action.inputs['fail-on'].default, 'error');
  assert.equal(action.inputs.format.default, 'github');
  assert.equal(action.inputs['sarif-file'].default, 'oomlint.sarif');
  assert.equal(action.runs.using, 'composite');

  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  const text = fs.readFileSync(path.join(sourceDir, 'action.yml'), 'utf8');
  for (const step of action.runs.steps) {
    assert.ok(step.run || step.uses, step.name);
    if (step.run) assert.equal(step.shell, 'bash', `${step.name}: a composite run step needs shell`);
  }
  for (const [, name] of text.matchAll(/inputs\.([\w-]+)/g)) assert.ok(name in action.inputs, `inputs.${name}`);
  for (const [, id] of text.matchAll(/steps\.([\w-]+)\.outputs/g)) assert.ok(ids.has(id), `steps.${id}`);
  // The source build passes only options the project defines.
  const cmake = fs.readFileSync(path.join(sourceDir, 'CMakeLists.txt'), 'utf8');
  for (const [, option] of text.matchAll(/-D(OOMLINT_\w+)=/g)) assert.match(cmake, new RegExp(`option\\(${option}\\b`));
  assert.ok(action.runs.steps.some((s) => /^github\/codeql-action\/upload-sarif@/.test(s.uses ?? '')));
});

// Runs the action's "Run oomlint" step as the runner would: its script under `bash -eo pipefail` (what
// `shell: bash` means), its env with the
// inputs filled in, in a workspace, with the built CLI on PATH as `oomlint`.
function runCheckStep(t, inputs) {
  const step = action.runs.steps.find((s) => s.id === 'check');
  const workspace = tempDir(t, 'action');
  const bin = path.join(workspace, '.bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(cliPath, path.join(bin, 'oomlint'));
  const example = (name) => fs.readFileSync(path.join(sourceDir, 'docs/examples', name), 'utf8');
  fs.mkdirSync(path.join(workspace, 'config/video'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'config/flux.yaml'), example('flux-lora-24gb.yaml'));
  fs.writeFileSync(path.join(workspace, 'config/video/wan.yml'), example('wan21-video-lora.yaml'));
  const output = path.join(workspace, '.github-output');
  fs.writeFileSync(output, '');
  const values = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? '']));
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, GITHUB_OUTPUT: output, NO_COLOR: '' };
  for (const [name, value] of Object.entries(step.env)) {
    env[name] = value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input) => values[input]);
  }
  const r = run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: workspace, env });
  const outputs = Object.fromEntries(fs.readFileSync(output, 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return { ...r, outputs, workspace };
}

test('the action: globs expand, annotations print, the exit code is recorded, not raised', needsYaml, (t) => {
  const r = runCheckStep(t, { paths: 'config/*.yaml\nconfig/**/*.yml config/flux.yaml missing/*.json', 'fail-on': 'warning' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.outputs['exit-code'], '1');
  assert.match(r.stdout, /^::warning file=config\/video\/wan\.yml,line=29,.*title=OL201 unknown-key::/m);
  assert.match(r.stdout, /^::warning title=oomlint::no file matches 'missing\/\*\.json'$/m);
  assert.equal(r.stdout.match(/estimate on/g).length, 2, 'config/flux.yaml is checked once');

  const none = runCheckStep(t, { paths: 'nothing/**/*.yaml' });
  assert.equal(none.status, 2);
  assert.match(none.stdout, /^::error title=oomlint::no file matches the paths input$/m);
});

test('the action: format sarif writes a SARIF log for the upload step, and the log shows the findings', needsYaml, (t) => {
  const r = runCheckStep(t, { paths: 'config/**/*.y*ml', format: 'sarif', gpu: 'RTX 4090' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.outputs['exit-code'], '0');
  assert.equal(r.outputs['sarif-written'], 'true');
  assert.equal(r.outputs['sarif-file'], 'oomlint.sarif');
  const sarif = JSON.parse(fs.readFileSync(path.join(r.workspace, 'oomlint.sarif'), 'utf8'));
  assert.equal(sarif.version, '2.1.0');
  assert.ok(sarif.runs[0].results.some((res) => res.ruleId === 'OL201'));
  assert.match(r.stdout, /^config\/video\/wan\.yml:29:9: warning: .*\[OL201 unknown-key\]$/m);

  const fail = action.runs.steps.at(-1);
  assert.match(fail.if, /exit-code != '0'/);
  const failed = run('bash', ['-c', fail.run], { env: { ...process.env, CODE: '1', FAIL_ON: 'error' } });
  assert.equal(failed.status, 1);
});

test('.pre-commit-hooks.yaml: a system hook that takes config folders and skips other YAML', needsYaml, () => {
  assert.ok(Array.isArray(hooks));
  const hook = hooks.find((h) => h.id === 'oomlint');
  for (const h of hooks) for (const key of ['id', 'name', 'entry', 'language']) assert.equal(typeof h[key], 'string', `${h.id}.${key}`);
  assert.equal(hook.entry, 'oomlint check');
  assert.equal(hook.language, 'system');
  const taken = (file) => new RegExp(hook.files).test(file) && !new RegExp(hook.exclude).test(file);
  for (const file of ['config/job.yaml', 'config/examples/flux.yml', 'ai-toolkit/configs/wan.json']) assert.ok(taken(file), file);
  for (const file of ['.github/workflows/ci.yml', 'package.json', 'config/.oomlint.yaml', 'config/notes.md', 'myconfig/job.yaml']) {
    assert.ok(!taken(file), file);
  }
});

// The fenced ```yaml blocks of docs/ci.md; each example starts with a comment naming its file.
const yamlBlocks = [...ciDoc.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const blocksFor = (file) => yamlBlocks.filter((b) => b.startsWith(`# ${file}`));

test('docs/ci.md: every YAML example parses, and the CI ones use what exists', needsYaml, () => {
  assert.ok(yamlBlocks.length >= 8, `${yamlBlocks.length} yaml blocks`);
  for (const block of yamlBlocks) {
    const doc = YAML.parseDocument(block, { prettyErrors: true });
    assert.deepEqual(doc.errors, [], block);
  }

  const workflows = yamlBlocks.filter((b) => b.startsWith('# .github/workflows/'));
  assert.ok(workflows.length >= 3);
  let actionUses = 0;
  for (const block of workflows) {
    const workflow = YAML.parse(block);
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps) {
        if (!/^oomlint\/oomlint@/.test(step.uses ?? '')) continue;
        actionUses += 1;
        for (const key of Object.keys(step.with)) assert.ok(key in action.inputs, `with: ${key}`);
        assert.ok(step.with.paths);
        if (step.with.format === 'sarif') assert.equal(workflow.permissions['security-events'], 'write');
      }
    }
  }
  assert.ok(actionUses >= 2);

  const gitlab = YAML.parse(blocksFor('.gitlab-ci.yml')[0]);
  assert.equal(gitlab.oomlint.artifacts.reports.junit, 'oomlint-junit.xml');
  assert.ok(gitlab.oomlint.script.some((line) => line.includes('--format junit')));

  const hookIds = new Set(hooks.map((h) => h.id));
  const precommit = blocksFor('.pre-commit-config.yaml');
  assert.ok(precommit.length >= 1);
  for (const block of precommit) {
    for (const repo of YAML.parse(block).repos) for (const h of repo.hooks) assert.ok(hookIds.has(h.id), h.id);
  }
});

test('docs/ci.md: the project file and the suppression examples work as described', (t) => {
  const dir = tempDir(t, 'docs');
  const project = path.join(dir, '.oomlint.yaml');
  fs.writeFileSync(project, blocksFor('.oomlint.yaml')[0]);
  const example = path.join(sourceDir, 'docs/examples/wan21-video-lora.yaml');
  const checked = run(cliPath, ['check', '--format', 'json', '--config', project, example]);
  assert.equal(checked.status, 1, checked.stderr);  // fail_on: warning, and the example has warnings
  const codes = JSON.parse(checked.stdout).files[0].diagnostics.map((d) => `${d.code}:${d.severity}`);
  assert.ok(codes.includes('OL201:error'), codes.join(' '));  // severity: {OL201: error}

  // Away from that project file, which would otherwise apply to these configs too.
  const configs = tempDir(t, 'suppressions');
  const suppressed = yamlBlocks.find((b) => b.includes('# oomlint: disable-file='));
  const config = path.join(configs, 'suppressed.yaml');
  fs.writeFileSync(config, suppressed);
  const r = run(cliPath, ['check', '--format', 'json', '--fail-on', 'info', config]);
  assert.equal(r.status, 0, r.stdout);
  assert.deepEqual(JSON.parse(r.stdout).files[0].diagnostics, []);
  const bare = path.join(configs, 'bare.yaml');
  fs.writeFileSync(bare, suppressed.replace(/ *# oomlint: .*\n/g, '\n'));
  const found = JSON.parse(run(cliPath, ['check', '--format', 'json', bare]).stdout).files[0].diagnostics.map((d) => d.code);
  assert.deepEqual(found.sort(), ['OL201', 'OL201', 'OL405'], 'each suppression has something to suppress');
});

test('docs/ci.md: every flag it gives oomlint check or fix is one the CLI knows', () => {
  const help = run(cliPath, ['--help']);
  const usage = help.stdout + help.stderr;
  const lines = ciDoc.split('\n').filter((l) => /oomlint (check|fix)\b/.test(l));
  const flags = new Set(lines.flatMap((l) => l.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []));
  assert.ok(flags.size >= 6, [...flags].join(' '));
  for (const flag of flags) assert.ok(usage.includes(flag), `${flag} is not in oomlint's usage`);
});
