// Figures for docs/performance.md (printed, not asserted): the page's gzipped download, the time
// from navigation to the first analysis on screen beside the same server's first paint of a static
// placeholder page (interleaved), and the cost of one keystroke on a 300-line config.
//   node tests/browser/measure.mjs        (after `make web`; scripts/bench-web.sh runs both)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

import { sharedDir, sourceDir } from '../node/helpers.mjs';
import { analysedCount, editorReady, firstAnalysis, settledAfter, sharedLink } from './page-state.mjs';
import { serveStatic } from './static-server.mjs';

const { chromium } = createRequire(path.join(sourceDir, 'web/package.json'))('playwright-core');
const webDir = process.env.OOMLINT_WEB_DIR ?? path.join(sourceDir, 'build/web');
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];

// What the page loads at start (a first visit's verdict needs only the HTML, page.js and page.css of it: the worker
// and the module load beside it), and (editor.js, CodeMirror) what it loads after its first verdict.
// A site from before the editor left page.js has no editor.js (the benchmark also measures those).
const lazyEditor = fs.existsSync(path.join(webDir, 'editor.js'));
const beforeVerdict = ['index.html', 'boot.js', 'page.js', 'page.css', 'worker.js', 'oomlint.wasm'];
console.log('## Download (gzip -9)');
let total = 0;
for (const file of [...beforeVerdict, 'editor.js', 'oomlint-widget.js']) {
  if (file === 'editor.js' && !lazyEditor) continue;
  const raw = fs.readFileSync(path.join(webDir, file));
  const gz = zlib.gzipSync(raw, { level: 9 }).length;
  if (beforeVerdict.includes(file)) total += gz;
  console.log(`${file.padEnd(20)} ${kib(raw.length).padStart(11)} raw ${kib(gz).padStart(10)} gzip`);
}
console.log(`the page's own download (html+boot+js+css+worker+wasm; CodeMirror's editor.js after the first verdict): ${kib(total)} gzip`);

// The yardstick for the time to the first verdict: this server's first paint of a page with nothing
// to load, in the same browser and the same minutes.
const placeholder = '<!doctype html><html lang="en"><meta charset="utf-8"><title>placeholder</title><p>A static placeholder page.</p></html>';
const server = await serveStatic(webDir, { '/placeholder.html': placeholder });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

const firstPaint = async (page) => {
  await page.waitForFunction(() => performance.getEntriesByName('first-paint').length > 0, null, { timeout: 30000 });
  return page.evaluate(() => performance.getEntriesByName('first-paint')[0].startTime);
};

// Where a load's time goes, seen from the page (an init script runs before boot.js): when the HTML has
// arrived and the page first painted, when boot.js makes the worker and asks for the module's
// compilation and when it is compiled, when page.js has loaded, and when each request to the worker (the
// example's analysis and the catalog; the first of them waits for the module and reads the knowledge) is
// posted and answered. Milliseconds from navigation start.
const timeline = () => {
  const at = (globalThis.oomlintTimeline = {});
  const note = (name) => (at[name] ??= performance.now());
  const compile = WebAssembly.compileStreaming;
  WebAssembly.compileStreaming = (source) => {
    note('compile asked');
    return compile.call(WebAssembly, source).then((module) => (note('compiled'), module));
  };
  const ops = new Map();
  const NativeWorker = Worker;
  globalThis.Worker = class extends NativeWorker {
    constructor(...args) {
      note('worker made');
      super(...args);
      this.addEventListener('message', ({ data }) => {
        if (!ops.has(data?.id)) return;
        note(`${ops.get(data.id)} answered`);
        // The core's own time for the first analysis, inside the worker (engine.js measures it).
        if (ops.get(data.id) === 'analyze' && typeof data.result?.ms === 'number') at['first analysis in the worker'] ??= data.result.ms;
      });
    }
    postMessage(message, ...rest) {
      if (message?.op && message.id) {
        ops.set(message.id, message.op);
        note(`${message.op} posted`);
      }
      return super.postMessage(message, ...rest);
    }
  };
};
const phases = ['html loaded', 'worker made', 'first paint', 'compile asked', 'compiled', 'page.js loaded', 'worker.js loaded', 'example loaded', 'catalog posted', 'catalog answered', 'analyze posted', 'analyze answered', 'verdict on screen'];
const timelineOf = (page) =>
  page.evaluate(() => ({
    ...globalThis.oomlintTimeline,
    'html loaded': performance.getEntriesByType('navigation')[0].responseEnd,
    'first paint': performance.getEntriesByName('first-paint')[0]?.startTime,
    'page.js loaded': performance.getEntriesByName(new URL('page.js', location.href).href)[0]?.responseEnd,
    'worker.js loaded': performance.getEntriesByName(new URL('worker.js#module-posted', location.href).href)[0]?.responseEnd,
    'example loaded': performance.getEntriesByName(new URL('examples/flux-lora-24gb.yaml', location.href).href)[0]?.responseEnd,
    'verdict on screen': performance.getEntriesByName('oomlint-first-analysis')[0].startTime,
  }));

console.log('\n## Navigation to the first analysis on screen (fresh profile each time, loopback server)');
const timelines = [];
const firsts = [];
const placeholderPaints = [];
const editorReadies = [];
const editorAfterVerdict = []; // when the page asked for editor.js, from its first verdict
// The same server's placeholder page in a fresh profile: its first paint, the yardstick of each load.
async function placeholderPaint() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}placeholder.html`);
  const paint = await firstPaint(page);
  await context.close();
  return paint;
}

for (let run = 0; run < 7; run++) {
  placeholderPaints.push(await placeholderPaint());
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(timeline);
  await page.goto(server.url);
  await firstAnalysis(page, 30000);
  timelines.push(await timelineOf(page));
  firsts.push(timelines.at(-1)['verdict on screen']);
  if (lazyEditor) {
    await editorReady(page, 30000);
    editorReadies.push(await page.evaluate(() => performance.getEntriesByName('oomlint-editor-ready')[0].startTime));
    editorAfterVerdict.push(
      await page.evaluate(
        () =>
          performance.getEntriesByName(new URL('editor.js', location.href).href)[0].startTime -
          performance.getEntriesByName('oomlint-first-analysis')[0].startTime,
      ),
    );
  }
  await context.close();
}
// A permalink's config has no report in the page: its first verdict waits for the module (boot.js starts it at once).
const linkPage = await (await browser.newContext()).newPage();
await linkPage.goto(server.url);
await firstAnalysis(linkPage, 30000);
await linkPage.locator('#share').click();
const link = await sharedLink(linkPage, 30000);
await linkPage.context().close();
const linked = [];
const linkPlaceholderPaints = [];
for (let run = 0; run < 7; run++) {
  linkPlaceholderPaints.push(await placeholderPaint());
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await firstAnalysis(page, 30000);
  linked.push(await page.evaluate(() => performance.getEntriesByName('oomlint-first-analysis')[0].startTime));
  await context.close();
}

const summary = (xs) => `median ${median(xs).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
console.log(`first verdict on screen (a first visit: the example's report came with the page): ${summary(firsts)} over ${firsts.length} loads`);
console.log(`placeholder page's first paint, interleaved: ${summary(placeholderPaints)}`);
console.log(`first verdict / placeholder first paint (medians): ${(median(firsts) / median(placeholderPaints)).toFixed(1)}×`);
console.log('where the time goes (medians over the loads, ms from navigation):');
for (const phase of phases) {
  const times = timelines.map((t) => t[phase]).filter((t) => t !== undefined);
  if (times.length) console.log(`  ${phase.padEnd(18)} ${median(times).toFixed(0).padStart(5)}`);
}
const inWorker = timelines.map((t) => t['first analysis in the worker']).filter((t) => t !== undefined);
if (inWorker.length) console.log(`  (the first analysis inside the worker: median ${median(inWorker).toFixed(0)} ms of it)`);
console.log(`first verdict on screen from a permalink (the module's analysis): ${summary(linked)}; its placeholder's first paint, interleaved: ${summary(linkPlaceholderPaints)}; ${(median(linked) / median(linkPlaceholderPaints)).toFixed(1)}×`);
if (lazyEditor) {
  console.log(`editor.js requested after the first verdict by: ${summary(editorAfterVerdict)}`);
  console.log(`editor (CodeMirror) in place: ${summary(editorReadies)}`);
}

// A 300-line config: the FLUX example with more sample prompts.
const base = fs.readFileSync(path.join(sharedDir, 'corpus/ai-toolkit/examples/train_lora_flux_24gb.yaml'), 'utf8').trimEnd().split('\n');
const at = base.findIndex((l) => /^\s+prompts:/.test(l)) + 1;
const indent = base[at].match(/^\s*/)[0];
while (base.length < 300) base.splice(at, 0, `${indent}- "prompt ${base.length}: a photo of p3r5on in a garden, soft light"`);
const config = `${base.join('\n')}\n`;

console.log(`\n## One keystroke on a ${config.split('\n').length - 1}-line config`);
const context = await browser.newContext();
const page = await context.newPage();
await page.goto(server.url);
await firstAnalysis(page, 30000);
if (lazyEditor) await editorReady(page, 30000);
await page.locator('#config-editor .cm-content').click();
await page.keyboard.press('Control+A');
let before = await analysedCount(page);
await page.keyboard.insertText(config);
await settledAfter(page, before, 30000);
// Put the cursor at the end of the `steps:` value, as a user editing it would.
await page.locator('#config-editor').evaluate((el) => {
  const view = el.editorView;
  const at = view.state.doc.toString().search(/steps: \d+/);
  view.dispatch({ selection: { anchor: view.state.doc.lineAt(at).to }, scrollIntoView: true });
  view.focus();
});
const core = [];
const endToEnd = [];
for (let key = 0; key < 30; key++) {
  before = await analysedCount(page);
  const started = await page.evaluate(() => performance.now());
  await page.keyboard.press(key % 2 ? 'Backspace' : '1');
  await settledAfter(page, before, 30000);
  const ended = await page.evaluate(() => performance.now());
  core.push(Number(await page.evaluate(() => document.body.dataset.analysisMs)));
  endToEnd.push(ended - started);
}
console.log(`core analysis in the worker: median ${median(core).toFixed(1)} ms, p90 ${p90(core).toFixed(1)} ms`);
console.log(`keystroke to report on screen (includes the 150 ms debounce): median ${median(endToEnd).toFixed(0)} ms, p90 ${p90(endToEnd).toFixed(0)} ms`);
await context.close();
await browser.close();
await server.close();
