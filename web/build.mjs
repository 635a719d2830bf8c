// Bundles the page, its analysis worker and the widget into a static folder any host can serve.
//   node build.mjs [--wasm-dir DIR] [--out DIR]
// Defaults: the wasm preset's module (build/wasm/wasm) and build/web.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.resolve(webDir, '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return path.resolve(at > 0 ? process.argv[at + 1] : fallback);
};
const wasmDir = option('--wasm-dir', path.join(repoDir, 'build/wasm/wasm'));
const outDir = option('--out', path.join(repoDir, 'build/web'));

for (const file of ['oomlint.js', 'oomlint.wasm']) {
  if (!fs.existsSync(path.join(wasmDir, file))) {
    console.error(`build.mjs: ${path.join(wasmDir, file)} is missing: build the wasm preset first (cmake --build --preset wasm)`);
    process.exit(1);
  }
}

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(path.join(outDir, 'examples'), { recursive: true });

const common = {
  bundle: true,
  minify: true,
  target: ['chrome111', 'firefox113', 'safari16.4'],
  legalComments: 'none',
  logLevel: 'warning',
  // Emscripten's glue reaches for Node's modules only when it runs under Node.
  alias: { 'oomlint-wasm': path.join(wasmDir, 'oomlint.js') },
  external: ['fs', 'path'],
};

await Promise.all([
  esbuild.build({ ...common, entryPoints: [path.join(webDir, 'src/page/main.js')], outfile: path.join(outDir, 'page.js'), format: 'esm' }),
  // CodeMirror, which page.js imports once its first verdict is on screen (src/page/pane.js). Its own
  // entry point rather than a split chunk: a chunk shared with page.js would be one more request
  // before the first verdict.
  esbuild.build({ ...common, entryPoints: [path.join(webDir, 'src/page/editors.js')], outfile: path.join(outDir, 'editor.js'), format: 'esm' }),
  esbuild.build({ ...common, entryPoints: [path.join(webDir, 'src/page/page.css')], outfile: path.join(outDir, 'page.css') }),
  esbuild.build({ ...common, entryPoints: [path.join(webDir, 'src/engine/engine-worker.js')], outfile: path.join(outDir, 'worker.js'), format: 'iife' }),
  esbuild.build({
    ...common,
    entryPoints: [path.join(webDir, 'src/widget/widget.js')],
    outfile: path.join(outDir, 'oomlint-widget.js'),
    format: 'iife',
    loader: { '.css': 'text' },
  }),
]);

fs.copyFileSync(path.join(wasmDir, 'oomlint.wasm'), path.join(outDir, 'oomlint.wasm'));
for (const page of fs.readdirSync(path.join(webDir, 'static'))) {
  fs.copyFileSync(path.join(webDir, 'static', page), path.join(outDir, page));
}
// boot.js is loaded by every visit: minified like the bundles (its comments stay in the source).
await esbuild.build({
  minify: true,
  target: common.target,
  legalComments: 'none',
  logLevel: 'warning',
  entryPoints: [path.join(webDir, 'static/boot.js')],
  outfile: path.join(outDir, 'boot.js'),
  allowOverwrite: true,
});
// The rule pages, fetched by the page when one is opened.
const rulePages = path.join(repoDir, 'docs/rules');
fs.mkdirSync(path.join(outDir, 'rules'));
for (const page of fs.readdirSync(rulePages).filter((name) => /^OL[0-9]{3}\.md$/.test(name))) {
  fs.copyFileSync(path.join(rulePages, page), path.join(outDir, 'rules', page));
}
const examples = path.join(repoDir, 'docs/examples');
for (const example of fs.readdirSync(examples)) {
  fs.copyFileSync(path.join(examples, example), path.join(outDir, 'examples', example));
}

// The example a first visit opens, with its report made here by the module the page's worker runs, on the card the
// page starts with (the core's default): the page shows both as soon as its script runs, and the worker answers
// every change after them (src/page/main.js). In a data block, which runs nothing (the CSP allows no inline script).
const FIRST_EXAMPLE = 'flux-lora-24gb.yaml';
const core = await createRequire(import.meta.url)(path.join(wasmDir, 'oomlint.js'))({
  wasmBinary: fs.readFileSync(path.join(wasmDir, 'oomlint.wasm')),
});
const text = fs.readFileSync(path.join(examples, FIRST_EXAMPLE), 'utf8');
const report = JSON.parse(core.analyze(text, FIRST_EXAMPLE, '', 0, 0));
const block = JSON.stringify({ name: FIRST_EXAMPLE, text, report }).replace(/</g, '\\u003c');
const indexPath = path.join(outDir, 'index.html');
const index = fs.readFileSync(indexPath, 'utf8');
if (!index.includes('</body>')) throw new Error('build.mjs: index.html has no </body> for the first example');
fs.writeFileSync(indexPath, index.replace('</body>', `<script type="application/json" id="first-example">${block}</script>\n</body>`));
console.log(`build.mjs: wrote ${path.relative(process.cwd(), outDir) || '.'}`);
