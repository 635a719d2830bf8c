// `oomlint schema`: a valid JSON Schema (draft 2020-12), generated from rules/ai-toolkit/schema.yaml, that
// accepts every corpus example and judges edited configs the way `oomlint check` does.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import test from 'node:test';

import { runCli, sharedDir, sharedSkip, sourceDir } from './helpers.mjs';

const require = createRequire(path.join(sourceDir, 'web/package.json'));
const Ajv2020 = require('ajv/dist/2020').default;
const YAML = require('yaml');

// AI Toolkit's loader: PyYAML's YAML 1.1 resolvers plus its own float resolver for `1e-4`. The yaml package's
// 1.1 mode is looser than PyYAML in two places that matter here, so those two resolvers are narrowed:
// y/n are strings to PyYAML, and an exponent after a decimal point needs a sign (`1.0e4` is a string).
const PYYAML_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PYYAML_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;
const AITK_EXP_FLOAT = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*[eE][-+][0-9]+|[-+]?\.[0-9_]+[eE][-+][0-9]+|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+)$/;

function aitkTags(tags) {
  return tags.map((tag) => {
    if (tag.tag === 'tag:yaml.org,2002:bool') return { ...tag, test: tag.identify(true) ? PYYAML_TRUE : PYYAML_FALSE };
    if (tag.tag === 'tag:yaml.org,2002:float' && tag.format === 'EXP') return { ...tag, test: AITK_EXP_FLOAT };
    return tag;
  });
}

const loadLikeAiToolkit = (text) => YAML.parse(text, { version: '1.1', customTags: aitkTags });

const generated = runCli(['schema']);
const schema = JSON.parse(generated.stdout);
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validate = ajv.compile(schema);
const data = YAML.parse(fs.readFileSync(path.join(sourceDir, 'rules/ai-toolkit/schema.yaml'), 'utf8'));

const showErrors = (errors) => JSON.stringify(errors, null, 1);

// A clean trainer job: no error from the linter, valid for the schema.
const BASE = `job: extension
config:
  name: schema_test
  process:
    - type: sd_trainer
      training_folder: output
      trigger_word: p3r5on
      network:
        type: lora
        linear: 16
        linear_alpha: 16
      save:
        dtype: float16
        save_every: 250
      datasets:
        - folder_path: /data/images
          caption_ext: txt
          cache_latents_to_disk: true
          resolution: [512, 768, 1024]
      train:
        batch_size: 1
        steps: 2000
        gradient_checkpointing: true
        noise_scheduler: flowmatch
        optimizer: adamw8bit
        lr: 1e-4
        dtype: bf16
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
        quantize: true
        qtype: qfloat8
      sample:
        sampler: flowmatch
        sample_every: 250
        width: 1024
        height: 1024
        samples:
          - prompt: a bear building a log cabin
        sample_steps: 20
meta:
  name: "[name]"
  version: "1.0"
`;

// BASE with each [from, to] replaced (from: a string or a RegExp); a `from` that is missing fails the test
// rather than quietly testing BASE.
function applyEdits(edits) {
  let text = BASE;
  for (const [from, to] of edits) {
    assert.ok(typeof from === 'string' ? text.includes(from) : from.test(text), `BASE has no ${from}`);
    text = text.replace(from, to);
  }
  return text;
}

function lint(text) {
  const r = runCli(['check', '--format', 'json', '--fail-on', 'never', '-'], text);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return JSON.parse(r.stdout).files[0].diagnostics;
}

// The linter's findings that the schema models: reading (OL1xx) and schema (OL2xx) errors.
const schemaErrors = (diagnostics) => diagnostics.filter((d) => /^OL[12]\d\d$/.test(d.code) && d.severity === 'error');

// `config.process[0].train.lr` as the JSON pointer ajv reports.
const pointer = (linterPath) => '/' + linterPath.replace(/\[(\d+)\]/g, '.$1').split('.').join('/');

function errorAt(errors, linterPath) {
  const want = pointer(linterPath);
  return errors.some((e) => {
    const child = e.params?.additionalProperty ?? e.params?.missingProperty;
    return e.instancePath === want || (child !== undefined && `${e.instancePath}/${child}` === want);
  });
}

test('oomlint schema prints a draft 2020-12 schema that ajv accepts in strict mode', () => {
  assert.equal(generated.code, 0, generated.stderr);
  assert.equal(generated.stderr, '');
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.match(schema.$id, /^(urn:|https:\/\/)/);
  assert.ok(schema.title && schema.description);
  assert.equal(ajv.validateSchema(schema), true, showErrors(ajv.errors));
  assert.equal(typeof validate, 'function');
  assert.equal(runCli(['schema']).stdout, generated.stdout, 'the output is deterministic');
});

test('every section, key, value set, default and deprecation of schema.yaml is in the schema', () => {
  const defs = schema.$defs;
  for (const [name, set] of Object.entries(data.value_sets)) {
    const def = defs[`values.${name}`];
    assert.ok(def, `value set ${name}`);
    assert.deepEqual(def.enum ?? def.anyOf[0].enum, set.values, `values of ${name}`);
  }
  for (const [name, section] of Object.entries(data.sections)) {
    const def = defs[`section.${name}`];
    assert.ok(def, `section ${name}`);
    assert.equal(def.additionalProperties === false, !section.open, `${name}: closed iff not open`);
    assert.deepEqual(Object.keys(def.properties ?? {}), Object.keys(section.keys), `${name}: keys in data order`);
    for (const [key, spec] of Object.entries(section.keys)) {
      const prop = def.properties[key];
      const where = `${name}.${key}`;
      if (spec.doc) assert.ok(prop.description.startsWith(spec.doc), `${where}: description`);
      assert.equal(prop.deprecated === true, spec.deprecated !== undefined, `${where}: deprecated`);
      if ('default' in spec) assert.deepEqual(prop.default, spec.default, `${where}: default`);
      if (spec.values) assert.ok(JSON.stringify(prop).includes(`"#/$defs/values.${spec.values}"`), `${where}: value set`);
      if (spec.required) assert.ok(def.required.includes(key), `${where}: required`);
    }
  }
});

// Values of the right and wrong type for each plain scalar key, tried against the key's own subschema.
// model.arch has no value set in schema.yaml but the linter checks it against architectures.yaml (OL207).
function samples(spec, where) {
  if (where === 'model.arch') return { good: ['flux', 'qwen_image:2512', ''], bad: ['flux3', ':flux', 5, true] };
  const lo = spec.min ?? (spec.max !== undefined ? spec.max - 1 : 0);
  const hi = spec.max ?? lo + 1;
  const int = spec.exclusive_min ? Math.floor(lo) + 1 : Math.ceil(lo);
  const float = (lo + hi) / 2 === Math.trunc((lo + hi) / 2) ? (lo + hi) / 2 + 0.25 : (lo + hi) / 2;
  switch (spec.type) {
    case 'int': return { good: [int, '${STEPS}'], bad: ['3', 'many', int + 0.5, true, [int], { a: int }] };
    case 'float':
    case 'number': return { good: [float, int, '${LR}'], bad: ['1e-4', 'x', true, [float]] };
    case 'bool': return { good: [true, false, 1, '${FLAG}'], bad: ['true', 'yes', [true], 0.5] };
    case 'string': {
      const values = spec.values ? data.value_sets[spec.values].values : null;
      if (values) return { good: [...values, '${VALUE}'], bad: ['no-such-value', 5, [values[0]]] };
      return { good: ['x', ''], bad: [5, true, ['x'], { a: 1 }] };
    }
    default: return null;
  }
}

test('each typed key accepts and rejects values the way the linter types them', () => {
  let tried = 0;
  for (const [name, section] of Object.entries(data.sections)) {
    for (const [key, spec] of Object.entries(section.keys)) {
      const cases = samples(spec, `${name}.${key}`);
      if (!cases) continue;
      const check = ajv.getSchema(`${schema.$id}#/$defs/section.${name}/properties/${key}`);
      const nullOk = spec.nullable === true || ('default' in spec && spec.default === null);
      for (const v of [...cases.good, ...(nullOk ? [null] : [])]) {
        assert.equal(check(v), true, `${name}.${key}: ${JSON.stringify(v)} should pass: ${showErrors(check.errors)}`);
      }
      for (const v of [...cases.bad, ...(nullOk ? [] : [null])]) {
        assert.equal(check(v), false, `${name}.${key}: ${JSON.stringify(v)} should fail`);
      }
      if (spec.type === 'int' || spec.type === 'float' || spec.type === 'number') {
        if (spec.min !== undefined) assert.equal(check(spec.exclusive_min ? spec.min : spec.min - 1), false, `${name}.${key} below min`);
        if (spec.max !== undefined) assert.equal(check(spec.max + 1), false, `${name}.${key} above max`);
      }
      tried++;
    }
  }
  assert.ok(tried > 300, `only ${tried} keys tried`);
});

test('the loader used here reads numbers and flags as AI Toolkit does', () => {
  const v = loadLikeAiToolkit('a: 1e-4\nb: 1.0e4\nc: 1.0e+4\nd: yes\ne: y\nf: "1e-4"\ng: 3e-5\n');
  assert.deepEqual(v, { a: 0.0001, b: '1.0e4', c: 10000, d: true, e: 'y', f: '1e-4', g: 0.00003 });
  assert.deepEqual(schemaErrors(lint(BASE)), [], 'BASE is clean for the linter');
  assert.equal(validate(loadLikeAiToolkit(BASE)), true, showErrors(validate.errors));
});

const examplesDir = path.join(sharedDir, 'corpus/ai-toolkit/examples');
const UNPARSABLE = 'train_lora_omnigen2_24gb.yaml';  // deliberately broken YAML (an unclosed quote)
const examples = sharedSkip ? [] : fs.readdirSync(examplesDir).filter((f) => /\.ya?ml$/.test(f) && f !== UNPARSABLE).sort();

test('the corpus is all there', { skip: sharedSkip }, () => {
  assert.equal(examples.length, 24);
  assert.ok(fs.existsSync(path.join(examplesDir, UNPARSABLE)));
});

for (const file of examples) {
  test(`corpus example ${file} is valid`, () => {
    const text = fs.readFileSync(path.join(examplesDir, file), 'utf8');
    assert.deepEqual(schemaErrors(lint(text)), [], 'the linter accepts it');
    const ok = validate(loadLikeAiToolkit(text));
    assert.equal(ok, true, `${file}: ${ajv.errorsText(validate.errors)}\n${showErrors(validate.errors)}`);
  });
}

// Edits of BASE the linter reports (code, severity, path): the schema must reject them at that path.
const rejected = [
  ['a word for an integer', [['batch_size: 1', 'batch_size: "eight"']], 'OL202', 'error', 'config.process[0].train.batch_size'],
  ['a quoted number', [['lr: 1e-4', 'lr: "1e-4"']], 'OL202', 'error', 'config.process[0].train.lr'],
  ['1.0e4, a string to YAML 1.1', [['lr: 1e-4', 'lr: 1.0e4']], 'OL202', 'error', 'config.process[0].train.lr'],
  ['y, a string to PyYAML', [['gradient_checkpointing: true', 'gradient_checkpointing: y']], 'OL202', 'error', 'config.process[0].train.gradient_checkpointing'],
  ['a string for a flag', [['quantize: true', 'quantize: "true"']], 'OL202', 'error', 'config.process[0].model.quantize'],
  ['a fraction for an integer', [['linear: 16', 'linear: 16.5']], 'OL202', 'error', 'config.process[0].network.linear'],
  ['a dataset that is not a mapping', [['- folder_path: /data/images', '- /data/images\n        - folder_path: /data/images']], 'OL202', 'error', 'config.process[0].datasets[0]'],
  ['an unknown optimizer', [['optimizer: adamw8bit', 'optimizer: adamw9bit']], 'OL203', 'error', 'config.process[0].train.optimizer'],
  ['an unknown quant type before its adapter path', [['qtype: qfloat8', 'qtype: uint9|ostris/ara.safetensors']], 'OL203', 'error', 'config.process[0].model.qtype'],
  ['an unknown job kind', [['job: extension', 'job: trian']], 'OL203', 'error', 'job'],
  ['an unknown process type', [['type: sd_trainer', 'type: sd_trainr']], 'OL203', 'error', 'config.process[0].type'],
  ['an unknown architecture', [['arch: flux', 'arch: flux3']], 'OL207', 'error', 'config.process[0].model.arch'],
  ['a batch size of 0', [['batch_size: 1', 'batch_size: 0']], 'OL204', 'error', 'config.process[0].train.batch_size'],
  ['a sample below 64 px', [['- prompt: a bear building a log cabin', '- prompt: a bear building a log cabin\n            width: 32']], 'OL204', 'error', 'config.process[0].sample.samples[0].width'],
  ['no job name', [['  name: schema_test\n', '']], 'OL205', 'error', 'config.name'],
  ['a trainer without a model', [[/      model:\n(        .*\n)+/, '']], 'OL205', 'error', 'config.process[0].model'],
  ['an empty process list', [[/  process:\n[\s\S]*\nmeta:/, '  process: []\nmeta:']], 'OL205', 'error', 'config.process'],
  ['a key AI Toolkit refuses', [['cache_latents_to_disk: true', 'cache_latents_to_disk: true\n          poi: face']], 'OL206', 'error', 'config.process[0].datasets[0].poi'],
  ['a misspelt key', [['gradient_checkpointing: true', 'gradient_checkpoint: true']], 'OL201', 'warning', 'config.process[0].train.gradient_checkpoint'],
  ['a key in the wrong section', [['arch: flux', 'arch: flux\n        batch_size: 1']], 'OL201', 'warning', 'config.process[0].model.batch_size'],
  ['an unknown top-level key', [['meta:', 'metadata: {}\nmeta:']], 'OL201', 'warning', 'metadata'],
];

for (const [what, edits, code, severity, where] of rejected) {
  test(`rejects ${what}, as the linter does (${code})`, () => {
    const text = applyEdits(edits);
    const diagnostics = lint(text);
    assert.ok(
      diagnostics.some((d) => d.code === code && d.severity === severity && d.path === where),
      `the linter should report ${code} (${severity}) at ${where}: ${JSON.stringify(diagnostics.map((d) => [d.code, d.severity, d.path]))}`,
    );
    assert.equal(validate(loadLikeAiToolkit(text)), false, `the schema should reject it`);
    assert.ok(errorAt(validate.errors, where), `no schema error at ${pointer(where)}: ${showErrors(validate.errors)}`);
  });
}

// Edits the linter lets through (infos and warnings at most): the schema must accept them too.
const accepted = [
  ['an environment placeholder for a number', [['batch_size: 1', 'batch_size: ${BATCH}']]],
  ['an environment placeholder for a value set and a section', [['optimizer: adamw8bit', 'optimizer: ${OPT}'], ['      save:\n        dtype: float16\n        save_every: 250\n', '      save: ${SAVE}\n']]],
  ['an integer where a float is asked', [['lr: 1e-4', 'lr: 1']]],
  ['an integer flag', [['gradient_checkpointing: true', 'gradient_checkpointing: 1']]],
  ['YAML 1.1 booleans', [['quantize: true', 'quantize: yes'], ['gradient_checkpointing: true', 'gradient_checkpointing: on']]],
  ['an exponent with a sign after the point', [['lr: 1e-4', 'lr: 1.0e-4']]],
  ['an optimizer in capitals and a prodigy variant', [['optimizer: adamw8bit', 'optimizer: AdamW8bit']], [['optimizer: adamw8bit', 'optimizer: prodigy_plus_schedulefree']]],
  ['a quant type with its accuracy-recovery adapter', [['qtype: qfloat8', 'qtype: uint4|ostris/accuracy_recovery_adapters/flux_uint4.safetensors']]],
  ['an architecture with a variant', [['arch: flux', 'arch: flex1:alpha']]],
  ['a deprecated key', [['arch: flux', 'arch: flux\n        is_flux: true']]],
  ['free-form keys in an open section', [['qtype: qfloat8', 'qtype: qfloat8\n        model_kwargs:\n          anything_goes: [1, 2]\n        quantize_kwargs:\n          exclude: ["*norm*"]']]],
  ['null where the default is None', [['trigger_word: p3r5on', 'trigger_word:']]],
  ['a process that is not a trainer, with keys of its own', [['    - type: sd_trainer', '    - type: dataset_tools\n      whatever: 1\n    - type: sd_trainer']]],
  ['a job that does not train, whatever its processes hold', [['job: extension', 'job: extract'], ['batch_size: 1', 'batch_size: "eight"']]],
];

for (const [what, ...variants] of accepted) {
  test(`accepts ${what}, as the linter does`, () => {
    for (const edits of variants) {
      const text = applyEdits(edits);
      assert.deepEqual(schemaErrors(lint(text)), [], `the linter reports no error for ${JSON.stringify(edits)}`);
      assert.equal(validate(loadLikeAiToolkit(text)), true, `${JSON.stringify(edits)}: ${showErrors(validate.errors)}`);
    }
  });
}
