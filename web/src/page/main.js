// The page: two editing panes, a GPU picker, the machine's RAM and the report, wired to the analysis worker. It renders
// the core's Report and holds no analysis of its own. The panes are plain textareas until the first verdict is on
// screen; then the CodeMirror bundle (editor.js) is imported and takes them over (pane.js).
import { WorkerClient, latestOnly } from '../engine/client.js';
import { clear, h } from '../render/dom.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderReport } from '../render/report-view.js';
import { setUpGpuPicker } from './gpu-picker.js';
import { Pane } from './pane.js';
import { decodeState, encodeState } from './permalink.js';

const DEBOUNCE_MS = 150;
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const $ = (id) => document.getElementById(id);

// The first worker is the one boot.js started while this script loaded (for a permalink), else one made at the first
// request (after a first visit's verdict, which came with the page); a restart makes its own.
const client = new WorkerClient(() => {
  const early = globalThis.oomlintWorker;
  globalThis.oomlintWorker = undefined;
  return early ?? new Worker('worker.js');
});
const stateReady = decodeState(location.hash);
const exampleReady = stateReady.then((state) => (state ? null : (firstExample() ?? fetchExample('flux-lora-24gb.yaml'))));
// While the user types, only the newest analysis is worth showing.
const analyseLatest = latestOnly((input) => client.analyze(input));
const status = (text) => {
  $('status').textContent = text;
};

let analysed = null; // {config, log, report}: what the results on screen were computed from
let timer = 0; // the debounced analysis waiting to start, or 0
let running = 0; // analyses sent to the worker and not yet answered
let picker = null;
let started = false; // the start-up analysis has been asked for: from then on a change schedules one
// The job's other files beside the config pane's ({path, text}): an sd-scripts or musubi-tuner command
// line's dataset TOML or config file, read with it as one job.
let companions = [];

const configPane = new Pane($('config-editor'), { label: 'Job config, YAML or JSON', language: 'config', onChange: schedule });
const logPane = new Pane($('log-editor'), { label: 'Crash log (optional)', language: 'log', onChange: schedule });

function currentInput() {
  return {
    config: configPane.text,
    log: logPane.text,
    path: $('config-name').textContent || 'config.yaml',
    ...(picker ? picker.current() : { gpu: '', vramGib: 0 }),
    ramGib: Number($('ram').value) || 0,
    companions,
  };
}

// The job's other files, each with a button that takes it out of the job.
function showCompanions() {
  const list = clear($('companions'));
  list.hidden = companions.length === 0;
  if (!companions.length) return;
  list.append('with ', ...companions.map(({ path }) =>
    h('span', { class: 'companion', 'data-path': path }, path,
      h('button', { type: 'button', 'aria-label': `Take ${path} out of the job`, onclick: () => setCompanions(companions.filter((c) => c.path !== path)) }, '×'))));
}

function setCompanions(files) {
  companions = files;
  showCompanions();
  schedule();
}

function tooLarge(file) {
  if (file.size <= MAX_FILE_BYTES) return false;
  status(`${file.name} is ${(file.size / 1024 ** 2).toFixed(0)} MiB; the page opens files up to 64 MiB`);
  return true;
}

// Files added to the job: a file of the same name is replaced.
async function addCompanions(files) {
  const added = [];
  for (const file of files) {
    if (!tooLarge(file)) added.push({ path: file.name, text: await file.text() });
  }
  const names = new Set(added.map((c) => c.path));
  setCompanions([...companions.filter((c) => !names.has(c.path)), ...added]);
}

// "settled": no analysis is waiting or running, so the results on screen are those of the current
// input. Tests and the benchmark wait on it; a bare counter would let an older analysis pass for a
// newer one.
function markSettled() {
  document.body.dataset.settled = String(timer === 0 && running === 0);
}

function schedule() {
  // Before start-up the analysis to come reads whatever the inputs hold by then.
  if (!started) return;
  clearTimeout(timer);
  timer = setTimeout(analyse, DEBOUNCE_MS);
  markSettled();
}

async function analyse() {
  clearTimeout(timer); // an analysis started now serves any edit still waiting for the debounce
  timer = 0;
  const input = currentInput();
  if (!input.config.trim() && !input.log.trim()) {
    clear($('results')).append(h('p', { class: 'hint' }, 'Paste a job config (or a crash log) to see the estimate.'));
    configPane.showFindings([]);
    logPane.showFindings([]);
    markSettled();
    return;
  }
  running += 1;
  markSettled();
  try {
    const result = await analyseLatest(input);
    if (!result) return; // a newer analysis is on its way
    document.body.dataset.analysisMs = result.ms.toFixed(2);
    render(input, result.report);
    status(`analysed in ${result.ms.toFixed(1)} ms`);
  } catch (error) {
    clear($('results')).append(h('p', { class: 'report-error', role: 'alert' }, String(error.message)));
    status('');
  } finally {
    running -= 1;
    markSettled();
  }
}

// The pane whose text a report file was made from: with both panes filled the log report is the
// log pane's; with one filled, every file is that pane's (the core tells configs and logs apart).
function paneFor(file, input = analysed) {
  if (input.config.trim() && input.log.trim()) return file.kind === 'log' ? logPane : configPane;
  return input.config.trim() ? configPane : logPane;
}

function render(input, report) {
  analysed = { config: input.config, log: input.log, report };
  for (const pane of [configPane, logPane]) {
    pane.showFindings((report.files ?? []).filter((f) => paneFor(f) === pane).flatMap((f) => f.diagnostics));
  }
  clear($('results')).append(...renderReport(report, { onJump, onRule, onApply }));
  const count = (Number(document.body.dataset.analysed) || 0) + 1;
  document.body.dataset.analysed = String(count); // tests and the benchmark wait on these
  if (count === 1) performance.mark('oomlint-first-analysis');
}

function onJump(diagnostic, file) {
  paneFor(file).jumpTo(diagnostic.range);
}

// A rule's page is a static file beside the page (build.mjs copies docs/rules/), fetched when it is
// opened: the module carries none.
async function rulePage(code) {
  if (!/^OL[0-9]{3}$/.test(code)) return '';
  try {
    const response = await fetch(new URL(`rules/${code}.md`, document.baseURI));
    return response.ok ? await response.text() : '';
  } catch {
    return '';
  }
}

async function onRule(code) {
  const page = await rulePage(code);
  const body = clear($('rule-body'));
  body.append(...(page ? renderMarkdown(page) : [h('p', {}, `No page for ${code}.`)]));
  $('rule-dialog').showModal();
}

function onApply(steps) {
  // Edits are positions in the analysed text; after further typing they would land wrong.
  if (!analysed || configPane.text !== analysed.config) {
    status('the config changed since the plan was made: wait for the new analysis, then apply');
    return;
  }
  const applied = configPane.applyEdits(steps);
  status(`applied ${applied} change${applied === 1 ? '' : 's'}${configPane.undoable ? ' (Ctrl+Z undoes)' : ''}`);
}

async function share() {
  const { config, log, gpu, vramGib, ramGib, path } = currentInput();
  const job = companions.length ? { path, companions } : {};
  const link = new URL(await encodeState({ config, log, gpu, vramGib, ramGib, ...job }), location.href).href;
  history.replaceState(null, '', link);
  const field = $('share-link');
  field.value = link;
  field.hidden = false;
  field.select();
  try {
    await navigator.clipboard.writeText(link);
    status('link copied: it holds the config itself, and nothing is uploaded');
  } catch {
    status('copy the link from the field: it holds the config itself');
  }
}

const isLogFile = (file) => /\.(log|txt|out)$/i.test(file.name);
const isPng = (file) => file.type === 'image/png' || /\.png$/i.test(file.name);

// Files opened or dropped together: logs go to the log pane, a PNG's workflow to the config pane; of the
// other files, several are one job: a workflow (its launch line beside it), else the command line (its TOMLs
// beside it), else the first goes to the config pane, and the rest are its other files. What each file is, the
// core says. A config opened alone starts a job of its own.
async function openFiles(fileList) {
  const files = [...fileList];
  const job = files.filter((f) => !isLogFile(f) && !isPng(f));
  const png = files.some(isPng);
  for (const file of files.filter((f) => isLogFile(f) || isPng(f))) await openFile(file);
  if (!job.length) return;
  const kinds = job.length > 1 ? await client.kinds(await Promise.all(job.map((f) => f.slice(0, 1 << 16).text()))).catch(() => []) : [];
  // A PNG's workflow, opened above, is already the job's main file.
  const main = png ? null : (job[kinds.indexOf('comfyui-workflow')] ?? job.find((f) => /\.(sh|bat|cmd|ps1)$/i.test(f.name)) ?? job[0]);
  companions = [];
  if (main) await openFile(main);
  await addCompanions(job.filter((f) => f !== main));
}

async function openFile(file) {
  if (tooLarge(file)) return;
  if (isPng(file)) {
    // A PNG ComfyUI saved: the core reads the workflow from its text chunk; the JSON is what is shown,
    // analysed and fixed, like a pasted workflow.
    const found = await client.pngWorkflow(new Uint8Array(await file.arrayBuffer()));
    if (found.error) {
      status(`${file.name}: ${found.error}`);
      return;
    }
    $('config-name').textContent = `${file.name} (its ${found.keyword} chunk)`;
    configPane.setText(found.json);
    return;
  }
  const text = await file.text();
  if (isLogFile(file)) {
    $('log-details').open = true;
    logPane.setText(text);
  } else {
    $('config-name').textContent = file.name;
    showCompanions();
    configPane.setText(text);
  }
}

// The example a first visit opens and its report, both written into the page by the build (build.mjs) from the module
// the worker runs, on the card the page starts with: {name, text, report}, or null where the page has none.
function firstExample() {
  try {
    const block = $('first-example');
    return block ? JSON.parse(block.textContent) : null;
  } catch {
    return null;
  }
}

async function fetchExample(name) {
  const response = await fetch(`examples/${name}`);
  if (!response.ok) throw new Error(`example ${name}: ${response.status}`);
  return { name, text: await response.text() };
}

function showExample({ name, text }) {
  $('config-name').textContent = name;
  companions = [];
  showCompanions();
  configPane.setText(text);
}

function wireUi() {
  $('open-file').addEventListener('change', (event) => {
    openFiles(event.target.files);
    event.target.value = '';
  });
  $('add-file').addEventListener('change', (event) => {
    addCompanions([...event.target.files]);
    event.target.value = '';
  });
  // Files only: text dragged within a pane is the textarea's (or the editor's) to move.
  const carriesFiles = (event) => event.dataTransfer?.types.includes('Files');
  for (const zone of [$('config-pane'), $('log-details')]) {
    zone.addEventListener('dragover', (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      zone.classList.add('drop');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('drop'));
    zone.addEventListener('drop', (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      zone.classList.remove('drop');
      openFiles(event.dataTransfer.files);
    });
  }
  $('example').addEventListener('change', (event) => {
    if (event.target.value) fetchExample(event.target.value).then(showExample, (error) => status(error.message));
    event.target.value = '';
  });
  $('share').addEventListener('click', share);
  $('ram').addEventListener('input', schedule);
  $('rule-close').addEventListener('click', () => $('rule-dialog').close());
}

// The editor bundle, built beside page.js (build.mjs); a URL and not a module name, so that esbuild
// leaves the import to the browser instead of bundling CodeMirror into page.js.
const EDITOR_URL = new URL('editor.js', import.meta.url).href;

async function loadEditor() {
  document.body.dataset.editor = 'loading';
  try {
    const editors = await import(EDITOR_URL);
    configPane.upgrade(editors);
    logPane.upgrade(editors);
    document.body.dataset.editor = 'ready'; // tests and the benchmark wait on it
    performance.mark('oomlint-editor-ready');
  } catch (error) {
    // The plain panes keep working: edits are analysed, findings listed, plans applied.
    document.body.dataset.editor = 'failed';
    status(`the editor could not load (${error.message}); the plain text view still works`);
  }
}

// The version and the GPU picker, from the module's catalog; `state`: a permalink's choices.
async function setUpCatalog(state) {
  const catalog = await client.catalog();
  $('version').textContent = `oomlint ${catalog.version}`;
  picker = setUpGpuPicker($('gpu'), $('vram'), catalog.gpus, schedule);
  picker.set(state ?? { gpu: '', vramGib: 0 });
  if (state?.ramGib > 0) $('ram').value = String(state.ramGib);
}

function couldNotStart(error) {
  started = true; // edits still schedule analyses, each of which tries the worker again
  status(`oomlint could not start: ${error.message}`);
}

// Resolves once the first verdict is on screen.
async function start() {
  wireUi();
  // The text goes on screen as soon as it is here.
  const [state, example] = await Promise.all([stateReady, exampleReady]);
  if (state) {
    if (state.path) $('config-name').textContent = state.path;
    companions = state.companions;
    showCompanions();
    configPane.setText(state.config);
    logPane.setText(state.log);
    if (state.log) $('log-details').open = true;
    await setUpCatalog(state); // the permalink's card is chosen in the picker, which the analysis reads
  } else {
    showExample(example);
  }
  started = true;
  // The example's report came with the page, made for the text now in the pane on the default card the picker starts
  // with: it is the first verdict, and the worker's first request is the catalog. Otherwise the analysis is asked
  // first (the example's card needs nothing from the catalog) and the catalog, its JSON also code run for the first
  // time, follows it.
  if (example?.report) {
    render(currentInput(), example.report);
    markSettled();
  }
  const verdict = example?.report ? null : analyse();
  if (!state) setUpCatalog(null).catch(couldNotStart);
  if (example?.report) client.warm(currentInput()).catch(() => {});  // after the catalog: the worker answers in order
  await verdict;
}

start()
  .catch(couldNotStart)
  // After the first verdict has been painted (a frame, then a task): nothing before it waits for the
  // editor, and the editor waits for nothing else (the catalog is the worker's).
  .finally(() => requestAnimationFrame(() => setTimeout(loadEditor)));
