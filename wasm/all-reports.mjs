// Every report a module build gives on the repository's inputs, written to one file, so that two builds
// can be compared byte for byte (a size change must not change a report):
//   node wasm/all-reports.mjs build/wasm/wasm OUT.txt     (run from the source root; prints a count and a digest)
// Inputs: ../shared/corpus, tests/fixtures, tests/golden, tests/webui-seed, tests/logs-unseen and
// docs/examples, each with the default card, 8 GiB and 80 GiB; a config with a log; an unknown GPU; and
// the module's rules(), gpus() and version().
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [dir, outPath] = process.argv.slice(2).map((p) => path.resolve(p));
const createOomlint = createRequire(import.meta.url)(path.join(dir, 'oomlint.js'));
const core = await createOomlint({ wasmBinary: fs.readFileSync(path.join(dir, 'oomlint.wasm')) });

const files = [];
const walk = (folder) => {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (fs.statSync(file).size < 2e6) files.push(file);
  }
};
for (const folder of ['../shared/corpus', 'tests/fixtures', 'tests/golden', 'tests/webui-seed', 'tests/logs-unseen', 'docs/examples']) {
  if (fs.existsSync(folder)) walk(folder);
}
files.sort();

const reports = [core.rules(), core.gpus(), core.version()];
for (const file of files) {
  const text = fs.readFileSync(file, 'latin1');
  for (const vramGib of [0, 8, 80]) reports.push(`${file} ${vramGib}\n${core.analyze(text, file, '', vramGib, 0)}`);
}
const logs = '../shared/corpus/logs';
const log = fs.readFileSync(path.join(logs, fs.readdirSync(logs).sort()[0]), 'latin1');
reports.push(core.analyzeWithLog(fs.readFileSync('docs/examples/flux-lora-24gb.yaml', 'utf8'), 'flux.yaml', log, '', 0, 0));
reports.push(core.analyze('a: [1', 'bad.yaml', 'no such gpu', 0, 0));

const all = reports.join('\n=====\n');
fs.writeFileSync(outPath, all);
console.log(`${reports.length} reports, sha256 ${crypto.createHash('sha256').update(all).digest('hex')}`);
