// The WebAssembly module's analysis time in Node, per input: analyze() as the page's worker calls it
// (parse, check, estimate, plan and the JSON report), repeated — a few warm-up calls, then as many as fit
// in the time given — with the module loaded as the Node tests load it. Prints what native/bench/main.cpp
// prints: one tab-separated line per file with the median and p90 in microseconds.
// Usage: node native/bench/wasm-bench.mjs WASM_DIR [--time-ms MS] FILE...
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const wasmDir = path.resolve(args.shift());
let budgetMs = 300;
const files = [];
while (args.length) {
  const arg = args.shift();
  if (arg === '--time-ms') budgetMs = Number(args.shift());
  else files.push(arg);
}
const quantile = (values, q) => {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.round(q * (v.length - 1)))];
};

const t0 = performance.now();
const createOomlint = require(path.join(wasmDir, 'oomlint.js'));
const oomlint = await createOomlint({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')) });
const instantiated = performance.now() - t0;
const first = performance.now();
oomlint.analyze('job: extension\n', 'warm.yaml', '', 0, 0);  // reads the compiled knowledge
process.stderr.write(`wasm: instantiate ${instantiated.toFixed(0)} ms, first analysis ${(performance.now() - first).toFixed(1)} ms\n`);

console.log('file\tbytes\tlines\truns\tmedian_us\tp90_us');
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  let sink = 0;
  for (let i = 0; i < 3; i++) sink += oomlint.analyze(text, file, '', 0, 0).length;
  const us = [];
  const start = performance.now();
  while (us.length < 20 || performance.now() - start < budgetMs) {
    const t = performance.now();
    sink += oomlint.analyze(text, file, '', 0, 0).length;
    us.push((performance.now() - t) * 1000);
  }
  if (sink === 0) process.stderr.write(`wasm: ${file} gave no report\n`);
  console.log([file, Buffer.byteLength(text), text.split('\n').length - 1, us.length,
    quantile(us, 0.5).toFixed(1), quantile(us, 0.9).toFixed(1)].join('\t'));
}
