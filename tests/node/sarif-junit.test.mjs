// The report formats for code scanning and CI test reports: SARIF 2.1.0 checked by Microsoft's SARIF
// Multitool (schema, SARIF rules and GitHub's ingestion rules) and against the JSON report, and JUnit
// XML checked by libxml2's parser, with hostile keys and file names.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import test, { after } from 'node:test';

import { runCli, sharedDir, sharedSkip, sourceDir } from './helpers.mjs';

const examplesDir = path.join(sharedDir, 'corpus/ai-toolkit/examples');
// Relative to the working directory, as a CI job names its files: the SARIF URIs are then relative
// references against %SRCROOT%.
// The tests that read them are skipped (sharedSkip) where ../shared/corpus is missing.
const examples = (sharedSkip ? [] : fs.readdirSync(examplesDir))
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => path.relative(process.cwd(), path.join(examplesDir, f)));
const logs = ['013_ai-toolkit_zimage-3060-12gb.log', '018_ai-toolkit_flux-dev-4090.log', '025_comfyui_wan21-gguf-flattened.log', '001_other_invokeai-rocm-sdxl.log']
  .map((f) => path.join(sharedDir, 'corpus/logs', f))
  .filter((f) => fs.existsSync(f))
  .map((f) => path.relative(process.cwd(), f));
// The other trainers' own files (sd-scripts, musubi-tuner: command lines, TOMLs, GUI JSON; some names
// with spaces), checked against a card as a CI job would.
const trainerFiles = (sharedSkip ? [] : ['sd-scripts', 'musubi-tuner'])
  .flatMap((tool) => fs.readdirSync(path.join(sharedDir, 'corpus', tool))
    .filter((f) => /\.(sh|bat|ps1|toml|json)$/.test(f))
    .sort()
    .map((f) => path.relative(process.cwd(), path.join(sharedDir, 'corpus', tool, f))));
const fluxExample = path.join(examplesDir, 'train_lora_flux_24gb.yaml');
const oomFlux = (sharedSkip ? '' : fs.readFileSync(fluxExample, 'utf8')).replace('batch_size: 1', 'batch_size: 8');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oomlint-sarif-junit-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const multitool = createRequire(path.join(sourceDir, 'web/package.json'))('@microsoft/sarif-multitool');
const xmllint = process.env.XMLLINT ?? '/usr/bin/xmllint';

// A valid job whose `train:` section gets the lines under test.
const job = (trainLines) =>
  'job: extension\nconfig:\n  name: t\n  process:\n    - type: sd_trainer\n      model:\n        name_or_path: black-forest-labs/FLUX.1-dev\n' +
  `        arch: flux\n      train:\n        dtype: bf16\n${trainLines}\n`;

// Findings with fixes, on lines where non-ASCII text comes first (columns count code points).
const fixable =
  'job: extension\nconfig:\n  name: "fixes – ünïcode"\n  process:\n    - type: sd_trainer\n      model:\n' +
  '        name_or_path: black-forest-labs/FLUX.1-dev\n        arch: flx\n        quantize: true\n' +
  '      train: {ünï: 1, batch_size: "2", optimizer: adamw8bitt, noise_scheduler: flowmatch, gradient_checkpointing: true}\n' +
  '      sample:\n        sampler: ddpm # → flowmatch\n        prompts:\n          - "a cat"\n';

function json(args, input) {
  const out = runCli(['check', '--format', 'json', ...args], input);
  return JSON.parse(out.stdout);
}

// stdout must be exactly one JSON value: JSON.parse rejects anything before or after it.
function sarif(args, input) {
  const out = runCli(['check', '--format', 'sarif', ...args], input);
  assert.equal(out.stderr, '', `${args.join(' ')}: stderr`);
  assert.ok(out.stdout.startsWith('{') && out.stdout.endsWith('}\n'), `${args.join(' ')}: stdout is not one JSON document`);
  return { code: out.code, text: out.stdout, log: JSON.parse(out.stdout) };
}

const levelOf = { error: 'error', warning: 'warning', info: 'note' };
const regionOf = (range) => ({ startLine: range.start.line, startColumn: range.start.column, endLine: range.end.line, endColumn: range.end.column });

// The level a validator result has: its own, else its rule's default, else SARIF's default (warning).
function effectiveLevel(result, run) {
  return result.level ?? run.tool.driver.rules?.[result.ruleIndex]?.defaultConfiguration?.level ?? 'warning';
}

// Runs the Multitool once over many files (it takes about a second to start) with the SARIF rules and
// GitHub's ingestion rules (GH*) on, and returns its findings per file.
function validate(files) {
  const out = path.join(tmp, `validation-${Date.now()}.sarif`);
  // --level stays at its default, errors and warnings: the notes' checks (URL reachability among them)
  // would double the time for advice this format declines anyway (see the first test).
  const run = spawnSync(multitool, ['validate', ...files, '--output', out, '--log', 'ForceOverwrite', '--rule-kind', 'Sarif;Gh'], {
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, new RegExp(`Done\\. ${files.length} files scanned`), run.stdout);
  const validation = JSON.parse(fs.readFileSync(out, 'utf8')).runs[0];
  assert.equal(validation.invocations[0].executionSuccessful, true, run.stdout);
  const byFile = new Map(files.map((f) => [path.resolve(f), []]));
  for (const result of validation.results ?? []) {
    const file = decodeURIComponent(new URL(result.locations[0].physicalLocation.artifactLocation.uri).pathname);
    byFile.get(file).push({ level: effectiveLevel(result, validation), rule: result.ruleId, text: run.stdout.split('\n').find((l) => l.includes(result.ruleId) && l.includes(path.basename(file))) });
  }
  return byFile;
}

function xpath(file, expression) {
  const run = spawnSync(xmllint, ['--xpath', expression, file], { encoding: 'utf8' });
  if (run.error) throw run.error;
  assert.equal(run.status, 0, `${expression}: ${run.stderr}`);
  return run.stdout.trim();
}

// The text with a SARIF replacement applied; lines and columns are 1-based code points ("unicodeCodePoints").
function applyReplacement(text, replacement) {
  const lines = text.split('\n');
  const offset = (line, column) => {
    let at = 0;
    for (let i = 0; i < line - 1; ++i) at += lines[i].length + 1;
    return at + Array.from(lines[line - 1]).slice(0, column - 1).join('').length;
  };
  const r = replacement.deletedRegion;
  return text.slice(0, offset(r.startLine, r.startColumn)) + replacement.insertedContent.text + text.slice(offset(r.endLine, r.endColumn));
}

test('sarif: every corpus config, trainer file and some logs, with and without a GPU, pass the SARIF Multitool with GitHub rules', { skip: sharedSkip }, () => {
  assert.ok(examples.length >= 25 && logs.length >= 3, 'corpus missing');
  assert.ok(fs.existsSync(multitool), `SARIF Multitool not installed at ${multitool} (npm ci in web/)`);
  const files = [];
  const write = (name, text) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, text);
    files.push(file);
    return file;
  };
  for (const example of examples) {
    write(`${path.basename(example)}.sarif`, sarif([example]).text);
    write(`${path.basename(example)}.4090.sarif`, sarif(['--gpu', 'RTX 4090', example]).text);
  }
  for (const log of logs) write(`${path.basename(log)}.sarif`, sarif([log]).text);
  assert.ok(trainerFiles.length >= 40, 'sd-scripts / musubi-tuner corpus missing');
  for (const file of trainerFiles) write(`${path.basename(file)}.4090.sarif`, sarif(['--gpu', 'RTX 4090', file]).text);
  write('oom-stdin.sarif', sarif(['--gpu', 'RTX 4090', '-'], oomFlux).text);
  write('all.sarif', sarif(['--gpu', 'RTX 4090', ...examples, ...logs]).text);
  const fixableFile = path.join(tmp, 'fixes: 100% ünï & co.yaml');
  fs.writeFileSync(fixableFile, fixable);
  write('fixes.sarif', sarif([fixableFile]).text);
  // A control the validator must reject, so a validator that accepts anything cannot pass this test.
  const broken = JSON.parse(fs.readFileSync(files[files.length - 2], 'utf8'));
  broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
  broken.runs[0].results[0].ruleIndex = 999;
  const control = write('broken-control.sarif', JSON.stringify(broken));

  const verdicts = validate(files);
  const controlErrors = verdicts.get(control).filter((v) => v.level === 'error').map((v) => v.rule);
  assert.ok(controlErrors.includes('JSON1008') && controlErrors.includes('SARIF1009'), `control not rejected: ${controlErrors}`);
  for (const file of files.filter((f) => f !== control)) {
    // Errors break ingestion, and warnings are SARIF's "should"s: none of either. Notes are advice
    // this format declines on purpose: message ids instead of text (GitHub needs text), Pascal-case
    // rule names (ours are the catalog's kebab names), embedded sources and snippets, unreachable URIs
    // (no network here).
    const serious = verdicts.get(file).filter((v) => v.level === 'error' || v.level === 'warning');
    assert.deepEqual(serious, [], `${path.basename(file)}:\n${serious.map((v) => v.text).join('\n')}`);
  }
});

test('sarif: results match the JSON report: rules, levels, regions, key paths, estimates, artifacts', { skip: sharedSkip }, () => {
  let compared = 0;
  for (const example of examples) {
    const expected = json(['--gpu', 'RTX 4090', example]).files[0];
    const { log } = sarif(['--gpu', 'RTX 4090', example]);
    assert.equal(log.version, '2.1.0');
    assert.equal(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
    assert.equal(log.runs.length, 1);
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'oomlint');
    assert.equal(run.tool.driver.semanticVersion, run.tool.driver.version);
    assert.equal(run.columnKind, 'unicodeCodePoints');
    assert.ok(Array.isArray(run.results));
    assert.equal(run.invocations[0].executionSuccessful, true);
    // The rules are exactly those that fired, each with its page.
    const codes = [...new Set(expected.diagnostics.map((d) => d.code))].sort();
    assert.deepEqual(run.tool.driver.rules.map((r) => r.id).sort(), codes, example);
    for (const rule of run.tool.driver.rules) {
      assert.equal(rule.helpUri, `https://github.com/oomlint/oomlint/blob/main/docs/rules/${rule.id}.md`);
      assert.match(rule.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(rule.shortDescription.text && rule.fullDescription.text, rule.id);
      assert.match(rule.help.markdown, new RegExp(`^# ${rule.id} ${rule.name}\\n`));
      assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level), rule.id);
    }
    // The artifact: a relative reference against %SRCROOT%.
    assert.deepEqual(run.artifacts[0].location, { uri: example.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' });
    assert.equal(run.results.length, expected.diagnostics.length, example);
    const fingerprints = new Set();
    expected.diagnostics.forEach((d, i) => {
      const r = run.results[i];
      assert.equal(r.ruleId, d.code);
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, d.code);
      assert.equal(r.level, levelOf[d.severity]);
      assert.equal(r.message.text, d.message);
      const location = r.locations[0];
      assert.deepEqual(location.physicalLocation.region, regionOf(d.range), `${example} ${d.code}`);
      assert.deepEqual(location.physicalLocation.artifactLocation, { ...run.artifacts[0].location, index: 0 });
      if (d.path) assert.deepEqual(location.logicalLocations, [{ fullyQualifiedName: d.path, kind: 'property' }]);
      else assert.equal(location.logicalLocations, undefined);
      const fingerprint = r.partialFingerprints.primaryLocationLineHash;
      assert.match(fingerprint, /^[0-9a-f]{16}:\d+$/);
      assert.ok(!fingerprints.has(fingerprint), `duplicate fingerprint in ${example}`);
      fingerprints.add(fingerprint);
      compared++;
    });
    const estimates = run.properties.oomlint.estimates;
    if (expected.estimate) {
      assert.equal(estimates.length, 1, example);
      assert.equal(estimates[0].verdict, expected.estimate.verdict);
      assert.equal(estimates[0].peak_bytes, expected.estimate.peak_bytes);
      assert.equal(estimates[0].peak_phase, expected.estimate.peak_phase);
      assert.equal(estimates[0].uncertainty_bytes, expected.estimate.uncertainty_bytes);
      assert.equal(estimates[0].low_bytes, expected.estimate.low_bytes);
      assert.equal(estimates[0].high_bytes, expected.estimate.high_bytes);
      assert.deepEqual(estimates[0].gpu, { name: 'RTX 4090', vram_bytes: expected.estimate.gpu.vram_bytes, given: true });
      assert.match(estimates[0].summary, /^estimate on RTX 4090 .* — (fits|borderline|oom)/);
      assert.deepEqual(estimates[0].plan.map((s) => s.path), expected.plan.map((s) => s.path));
    } else {
      assert.equal(estimates.length, 0, example);
    }
  }
  assert.ok(compared >= 40, `only ${compared} results compared`);

  // Fingerprints are stable across runs and survive a change of the value they flag.
  const once = sarif(['--gpu', 'RTX 4090', '-'], oomFlux).log.runs[0].results;
  const again = sarif(['--gpu', 'RTX 4090', '-'], oomFlux.replace('batch_size: 8', 'batch_size: 6')).log.runs[0].results;
  const driver = (results) => results.find((r) => r.ruleId === 'OL503' && r.locations[0].logicalLocations[0].fullyQualifiedName.endsWith('batch_size'));
  assert.equal(driver(once).partialFingerprints.primaryLocationLineHash, driver(again).partialFingerprints.primaryLocationLineHash);
});

test('sarif: a clean run, logs, stdin, several files and odd file names', { skip: sharedSkip }, () => {
  const clean = sarif([path.join(sourceDir, 'tests/fixtures/clean/base-flux-lora.yaml')]).log.runs[0];
  assert.deepEqual(clean.results, []);
  assert.deepEqual(clean.tool.driver.rules, []);
  assert.equal(clean.properties.oomlint.estimates.length, 1);

  let crashLogs = 0;
  for (const log of logs) {
    const expected = json([log]).files[0];
    if (expected.kind === 'log') crashLogs++;
    const run = sarif([log]).log.runs[0];
    // A .log without a crash log's markers is read as a config: the artifact says which it was.
    assert.equal(run.artifacts[0].properties.kind, expected.kind);
    assert.equal(run.artifacts[0].mimeType, expected.kind === 'log' ? 'text/plain' : undefined);
    assert.deepEqual(run.results.map((r) => r.locations[0].physicalLocation.region), expected.diagnostics.map((d) => regionOf(d.range)));
    assert.deepEqual(run.properties.oomlint.logs.map((l) => l.oom), expected.log ? [expected.log.oom] : [], log);
  }

  assert.ok(crashLogs >= 3, 'too few inputs read as logs');

  const stdin = sarif(['--gpu', 'RTX 4090', '-'], oomFlux);
  assert.equal(stdin.code, 1);
  assert.deepEqual(stdin.log.runs[0].artifacts[0].location, { uri: 'stdin' });
  assert.equal(stdin.log.runs[0].properties.oomlint.estimates[0].verdict, 'oom');

  // Several files, one of them unparsable: one run, each file its own artifact, results point at theirs.
  const invalid = examples.find((f) => f.endsWith('train_lora_omnigen2_24gb.yaml'));
  const several = sarif([examples[0], invalid, logs[0]]);
  assert.equal(several.code, 2);
  const run = several.log.runs[0];
  assert.equal(run.artifacts.length, 3);
  const syntax = run.results.find((r) => r.ruleId === 'OL101');
  assert.equal(syntax.locations[0].physicalLocation.artifactLocation.index, 1);
  assert.equal(run.artifacts[1].properties.unreadable, true);
  for (const r of run.results) assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, run.artifacts[r.locations[0].physicalLocation.artifactLocation.index].location.uri);

  // An absolute path with a space, a colon, a percent sign and non-ASCII letters: a file URI that decodes back.
  const odd = path.join(tmp, 'odd name:100% ü #1.yaml');
  fs.writeFileSync(odd, job('        gradient_checkpoint: true'));
  const uri = sarif([odd]).log.runs[0].artifacts[0].location.uri;
  assert.match(uri, /^file:\/\/\/[A-Za-z0-9\-._~!$&'()*+,;=@/%]+$/);
  assert.equal(decodeURIComponent(new URL(uri).pathname), odd);
});

test('sarif: fixes replace exactly the flagged value or add the missing key, and applying them clears the finding', { skip: sharedSkip }, () => {
  const input = path.join(tmp, 'fixable.yaml');
  fs.writeFileSync(input, fixable);
  const before = json([input]).files[0].diagnostics;
  const results = sarif([input]).log.runs[0].results;
  const fixed = results.filter((r) => r.fixes);
  // OL207 arch, OL202 quoted number, OL203 optimizer, OL403 sampler: values written where they are flagged;
  // OL401 adds the dtype its section lacks (an insertion: nothing is deleted).
  assert.deepEqual(fixed.map((r) => r.ruleId).sort(), ['OL202', 'OL203', 'OL207', 'OL401', 'OL403']);
  assert.ok(before.some((d) => d.code === 'OL401' && d.fix));
  for (const r of fixed) {
    assert.equal(r.fixes.length, 1);
    const [change] = r.fixes[0].artifactChanges;
    assert.deepEqual(change.artifactLocation, r.locations[0].physicalLocation.artifactLocation);
    assert.equal(change.replacements.length, 1);
    const deleted = change.replacements[0].deletedRegion;
    if (r.ruleId === 'OL401') {
      assert.deepEqual([deleted.startLine, deleted.startColumn], [deleted.endLine, deleted.endColumn]);
    } else {
      assert.deepEqual(deleted, r.locations[0].physicalLocation.region);
    }
    const path_ = r.locations[0].logicalLocations[0].fullyQualifiedName;
    assert.match(r.fixes[0].description.text, new RegExp(`^Set ${path_.replace(/[[\].]/g, '\\$&')} to `));
    const after = json(['-'], applyReplacement(fixable, change.replacements[0])).files[0].diagnostics;
    assert.ok(!after.some((d) => d.code === r.ruleId && d.path === path_), `${r.ruleId} still reported after its fix`);
    assert.equal(after.filter((d) => d.code === 'OL101').length, 0, 'the fix broke the YAML');
  }
  // Unquoted strings stay unquoted; the quoted number loses its quotes.
  assert.equal(fixed.find((r) => r.ruleId === 'OL207').fixes[0].artifactChanges[0].replacements[0].insertedContent.text, 'flux');
  assert.equal(fixed.find((r) => r.ruleId === 'OL202').fixes[0].artifactChanges[0].replacements[0].insertedContent.text, '2');

  // The OOM: the plan's one needed step is the fix of OL501 and of its OL503, and it makes the job fit.
  const oom = sarif(['--gpu', 'RTX 4090', '-'], oomFlux).log.runs[0].results;
  const estimated = oom.find((r) => r.ruleId === 'OL501');
  assert.ok(estimated.fixes, 'OL501 without a fix');
  const replacement = estimated.fixes[0].artifactChanges[0].replacements[0];
  assert.equal(replacement.insertedContent.text, '1');
  assert.deepEqual(oom.find((r) => r.ruleId === 'OL503').fixes[0].artifactChanges, estimated.fixes[0].artifactChanges);
  const after = json(['--gpu', 'RTX 4090', '-'], applyReplacement(oomFlux, replacement)).files[0];
  assert.equal(after.estimate.verdict, 'fits');
  assert.ok(!after.diagnostics.some((d) => d.code === 'OL501'));

  // Every fix in the corpus, plan edits that insert a missing key included, does what it says.
  let applied = 0;
  for (const example of examples) {
    const text = fs.readFileSync(example, 'utf8');
    const planBefore = json(['--gpu', 'RTX 4090', example]).files[0].plan ?? [];
    const stepBefore = (keyPath) => JSON.stringify(planBefore.find((step) => step.path === keyPath)?.from);
    for (const r of sarif(['--gpu', 'RTX 4090', example]).log.runs[0].results.filter((x) => x.fixes)) {
      const keyPath = r.locations[0].logicalLocations[0].fullyQualifiedName;
      const after = json(['--gpu', 'RTX 4090', '-'], applyReplacement(text, r.fixes[0].artifactChanges[0].replacements[0])).files[0];
      const label = `${example}: ${r.ruleId} ${keyPath}`;
      assert.ok(!after.diagnostics.some((d) => d.code === 'OL101'), `${label}: the fix broke the file`);
      // The setting changed: a further step on it (the next bucket down) is a new value, not the same step.
      if (r.ruleId === 'OL503') {
        assert.ok(!after.plan.some((step) => step.path === keyPath && JSON.stringify(step.from) === stepBefore(keyPath)), `${label}: still the same plan step`);
      }
      else if (r.ruleId === 'OL501' || r.ruleId === 'OL502') assert.equal(after.estimate.verdict, 'fits', label);
      else assert.ok(!after.diagnostics.some((d) => d.code === r.ruleId && d.path === keyPath), `${label}: still reported`);
      applied++;
    }
  }
  assert.ok(applied >= 5, `only ${applied} corpus fixes applied`);
});

test('junit: every corpus config and trainer file gives well-formed XML whose counts match the JSON findings', { skip: sharedSkip }, () => {
  assert.ok(fs.existsSync(xmllint), `xmllint not found at ${xmllint} (apt-get install libxml2-utils)`);
  const files = [];
  const expectedAll = { tests: 0, failures: 0, errors: 0, failureElements: 0, errorElements: 0 };
  for (const example of [...examples, ...trainerFiles]) {
    const expected = json(['--gpu', 'RTX 4090', example]).files[0];
    const out = runCli(['check', '--format', 'junit', '--gpu', 'RTX 4090', example]);
    assert.equal(out.stderr, '');
    assert.ok(out.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="oomlint" '), example);
    const file = path.join(tmp, `${path.basename(example)}.xml`);
    fs.writeFileSync(file, out.stdout);
    files.push(file);

    const failing = expected.diagnostics.filter((d) => d.severity !== 'info');
    const notes = expected.diagnostics.filter((d) => d.severity === 'info');
    const unreadable = expected.diagnostics.some((d) => d.code === 'OL101');
    const counts = xpath(
      file,
      "concat(/testsuites/@tests,' ',/testsuites/@failures,' ',/testsuites/@errors,' ',count(//testsuite),' ',count(//testcase),' '," +
        "count(//testcase/failure),' ',count(//testcase/error),' ',//testsuite/@tests,' ',//testsuite/@failures,' ',//testsuite/@errors)",
    );
    const failures = !unreadable && failing.length > 0 ? 1 : 0;
    const errors = unreadable ? 1 : 0;
    const elements = [unreadable ? 0 : failing.length, unreadable ? failing.length : 0];
    assert.equal(counts, [1, failures, errors, 1, 1, ...elements, 1, failures, errors].join(' '), example);
    assert.equal(xpath(file, 'string(//testcase/@name)'), example);
    assert.equal(xpath(file, 'string(//testcase/@classname)'), 'oomlint');
    failing.forEach((d, i) => {
      const element = unreadable ? 'error' : 'failure';
      assert.equal(xpath(file, `string(//testcase/${element}[${i + 1}]/@type)`), d.code);
      assert.equal(xpath(file, `string(//testcase/${element}[${i + 1}]/@message)`), d.message);
      assert.equal(xpath(file, `string(//testcase/${element}[${i + 1}])`).split(' [')[0], `${example}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message}`.split(' [')[0]);
    });
    const systemOut = unreadable || (notes.length === 0 && !expected.estimate) ? '' : xpath(file, 'string(//testcase/system-out)');
    for (const d of notes) assert.ok(systemOut.includes(`${example}:${d.range.start.line}:${d.range.start.column}: info: ${d.message}`), example);
    if (expected.estimate) assert.match(systemOut, new RegExp(`estimate on RTX 4090 .* — ${expected.estimate.verdict}`));

    // The AI Toolkit examples checked together are unrelated files; the trainers' files would join into
    // jobs where one names another, so the run over all of them below takes the examples only.
    if (examples.includes(example)) {
      expectedAll.tests += 1;
      expectedAll.failures += failures;
      expectedAll.errors += errors;
    }
  }
  // One run over all the examples: one suite, a case per file, the same totals.
  const all = runCli(['check', '--format', 'junit', '--gpu', 'RTX 4090', ...examples]);
  assert.equal(all.code, 2);
  const allFile = path.join(tmp, 'all.xml');
  fs.writeFileSync(allFile, all.stdout);
  files.push(allFile);
  assert.equal(xpath(allFile, "concat(/testsuites/@tests,' ',/testsuites/@failures,' ',/testsuites/@errors,' ',count(//testcase))"),
    `${expectedAll.tests} ${expectedAll.failures} ${expectedAll.errors} ${examples.length}`);
  assert.equal(xpath(allFile, 'count(//testcase[failure])'), String(expectedAll.failures));

  const lint = spawnSync(xmllint, ['--noout', ...files], { encoding: 'utf8' });
  assert.equal(lint.status, 0, lint.stderr);
  assert.equal(lint.stderr, '');
});

test('junit: keys and file names with markup characters and control characters stay well-formed', () => {
  // A key with every XML special character and U+0001 (allowed in YAML's double quotes, not in XML 1.0).
  const weird = path.join(tmp, 'a&b <c> "d" \'e\'.yaml');
  fs.writeFileSync(weird, job('        "we<&>\\"\'ird\\x01key\\r\\nline": 1'));
  const findings = json([weird]).files[0].diagnostics;
  assert.ok(findings.some((d) => d.code === 'OL201' && d.message.includes('we<&>"\'ird\u0001key')), JSON.stringify(findings));
  const out = runCli(['check', '--format', 'junit', weird]);
  assert.ok(!out.stdout.includes('\u0001'));
  const file = path.join(tmp, 'weird.xml');
  fs.writeFileSync(file, out.stdout);
  const lint = spawnSync(xmllint, ['--noout', file], { encoding: 'utf8' });
  assert.equal(lint.status, 0, lint.stderr + out.stdout);
  assert.equal(xpath(file, 'string(//testcase/@name)'), weird);
  const message = xpath(file, 'string(//failure[@type="OL201"]/@message)');
  // The control character is replaced (U+FFFD); CR and LF survive as character references.
  assert.ok(message.includes('we<&>"\'ird\uFFFDkey\r\nline'), message);
  assert.ok(xpath(file, 'string(//failure[@type="OL201"])').includes('we<&>"\'ird\uFFFDkey'));
  assert.equal(xpath(file, "concat(/testsuites/@tests,' ',/testsuites/@failures,' ',count(//failure))"), `1 1 ${findings.filter((d) => d.severity !== 'info').length}`);

  // The same key in SARIF: JSON escapes it, the document still parses.
  const results = sarif([weird]).log.runs[0].results;
  assert.ok(results.some((r) => r.message.text.includes('we<&>"\'ird\u0001key')));
});

test('exit codes follow --fail-on in sarif and junit', () => {
  const warn = path.join(tmp, 'warn.yaml');
  fs.writeFileSync(warn, job('        gradient_checkpoint: true'));
  const error = path.join(tmp, 'error.yaml');
  fs.writeFileSync(error, job('        batch_size: "2"'));
  const cases = [
    [warn, [], 0],
    [warn, ['--fail-on', 'error'], 0],
    [warn, ['--fail-on', 'warning'], 1],
    [warn, ['--fail-on', 'info'], 1],
    [warn, ['--fail-on', 'never'], 0],
    [error, [], 1],
    [error, ['--fail-on', 'never'], 0],
  ];
  for (const format of ['sarif', 'junit']) {
    for (const [file, flags, code] of cases) {
      const out = runCli(['check', '--format', format, ...flags, file]);
      assert.equal(out.code, code, `${format} ${flags.join(' ')} ${path.basename(file)}`);
      if (format === 'sarif') JSON.parse(out.stdout);
      else assert.match(out.stdout, /<\/testsuites>\n$/);
    }
  }
});
