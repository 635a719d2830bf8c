// The built page and widget in headless Chromium (Debian's, driven by playwright-core), served by a
// plain static server on loopback. Every request the browser makes is recorded: any that is not to
// that server fails the run. Screenshots go to $OOMLINT_ARTIFACTS_DIR (default build/browser).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { sharedDir, sharedSkip, sourceDir } from '../node/helpers.mjs';
import { analysedCount, editorReady, firstAnalysis, settledAfter, sharedLink } from './page-state.mjs';
import { serveStatic } from './static-server.mjs';

const { chromium } = createRequire(path.join(sourceDir, 'web/package.json'))('playwright-core');
const webDir = process.env.OOMLINT_WEB_DIR ?? path.join(sourceDir, 'build/web');
const artifacts = process.env.OOMLINT_ARTIFACTS_DIR ?? path.join(sourceDir, 'build/browser');
const corpus = (name) => fs.readFileSync(path.join(sharedDir, 'corpus', name), 'utf8');

let server;
let browser;
const requests = [];
const problems = []; // uncaught errors and console errors (a CSP violation is one)

before(async () => {
  if (!fs.existsSync(path.join(webDir, 'index.html'))) throw new Error(`${webDir} has no built page: run \`make web\` first`);
  fs.mkdirSync(artifacts, { recursive: true });
  server = await serveStatic(webDir);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'], // root in CI containers
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// `prepare(context)` runs before the navigation (to route requests).
async function openPage(url, { width = 1280, height = 900, colorScheme = 'light', prepare } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  context.on('request', (request) => requests.push(request.url()));
  await prepare?.(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`${url}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${url}: console: ${message.text()}`);
  });
  await page.goto(url);
  return page;
}

const editorText = (page, id) => page.locator(`#${id}`).evaluate((el) => el.editorView.state.doc.toString());

// Replaces an editor's text the way a paste does: focus, select all, insert.
async function paste(page, id, text) {
  await page.locator(`#${id} .cm-content`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

// The first verdict, then the editor taking over the panes: what most tests start from.
async function started(page) {
  await firstAnalysis(page);
  await editorReady(page);
}

// Runs `action` and waits for the analysis of the input as the action left it.
async function analysisAfter(page, action) {
  const before = await analysedCount(page);
  await action();
  await settledAfter(page, before);
}

const verdictOf = (page) => page.locator('.results .verdict').getAttribute('data-verdict');
const hostVerdictOf = (page) => page.locator('.results .host-verdict').getAttribute('data-host-verdict');

test('FLUX 24 GB with batch_size 8 on a 24 GB card: oom, underlined, fixed by the plan, undoable', { skip: sharedSkip }, async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 4090'));

  const config = corpus('ai-toolkit/examples/train_lora_flux_24gb.yaml').replace(/batch_size: 1\n/, 'batch_size: 8\n');
  await analysisAfter(page, () => paste(page, 'config-editor', config));
  assert.equal(await verdictOf(page), 'oom');
  assert.match(await page.locator('.results .verdict').textContent(), /training step needs/);

  // The OL501 finding sits on the batch_size value, underlined in the editor and listed with its line.
  const batchLine = page.locator('#config-editor .cm-line', { hasText: 'batch_size: 8' });
  await batchLine.locator('.cm-lintRange-error').first().waitFor();
  assert.equal(await page.locator('.finding[data-code="OL501"]').getAttribute('data-line'), '41');
  await page.screenshot({ path: path.join(artifacts, 'page-oom.png'), fullPage: true });

  // The rule code opens the rule's page.
  await page.locator('.finding[data-code="OL501"] button.code').click();
  // The page is fetched from the site's rules/ folder: wait for the dialog to be open with it, not for the click.
  assert.match(await page.locator('#rule-dialog[open] h1').textContent(), /^OL501 estimated-oom/);
  await page.screenshot({ path: path.join(artifacts, 'page-rule.png') });
  await page.locator('#rule-close').click();

  // Clicking the finding selects its range in the editor.
  await page.locator('.finding[data-code="OL501"] .message').click();
  const selection = await page.locator('#config-editor').evaluate((el) => {
    const { state } = el.editorView;
    return state.sliceDoc(state.selection.main.from, state.selection.main.to);
  });
  assert.equal(selection, '8');

  await analysisAfter(page, () => page.locator('button.apply-needed').click());
  assert.equal(await verdictOf(page), 'fits');
  assert.match(await editorText(page, 'config-editor'), /batch_size: 1\n/);
  assert.equal((await editorText(page, 'config-editor')).length, config.length, 'only the value changed');
  await page.screenshot({ path: path.join(artifacts, 'page-fits.png'), fullPage: true });

  await analysisAfter(page, async () => {
    await page.locator('#config-editor .cm-content').focus();
    await page.keyboard.press('Control+Z');
  });
  assert.equal(await editorText(page, 'config-editor'), config);
  assert.equal(await verdictOf(page), 'oom');
  await page.context().close();
});

test('a catalog card with its memory given: the card\'s kind, the size typed', { skip: sharedSkip }, async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 4090'));
  const size = page.locator('#vram');
  assert.equal(await size.isVisible(), true, 'a named card offers its memory');
  assert.equal(await size.inputValue(), '');
  assert.equal(await size.getAttribute('placeholder'), '23.5 GiB');
  await analysisAfter(page, () => paste(page, 'config-editor', corpus('ai-toolkit/examples/train_lora_flux_24gb.yaml')));
  assert.equal(await verdictOf(page), 'fits');
  await analysisAfter(page, () => page.fill('#vram', '12'));
  assert.equal(await verdictOf(page), 'oom');
  assert.match(await page.locator('.results .verdict').textContent(), /more than the RTX 4090 has \(12\.0 GiB\)/);
  // Another card: the size typed for the first is not carried over.
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 3090'));
  assert.equal(await size.inputValue(), '');
  assert.equal(await verdictOf(page), 'fits');
  await analysisAfter(page, () => page.selectOption('#gpu', ''));
  assert.equal(await size.isVisible(), false, 'the default card takes no size');
  await page.context().close();
});

test('the machine\'s RAM gives the host-RAM verdict, its chart, its finding and its plan', async () => {
  const page = await openPage(server.url);
  await started(page);
  // A 48 GB card, as the fixture names: room for the bf16 transformer Wan quantizes on the GPU, so the
  // host-RAM plan may offload less.
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX A6000'));
  const config = fs.readFileSync(path.join(sourceDir, 'tests/fixtures/rules/OL504-estimated-host-ram-oom.yaml'), 'utf8');
  await analysisAfter(page, () => paste(page, 'config-editor', config));
  assert.equal(await hostVerdictOf(page), 'unknown');
  assert.match(await page.locator('.results .host-verdict').textContent(), /Give the machine's RAM for a verdict/);

  await analysisAfter(page, () => page.fill('#ram', '24'));
  assert.equal(await hostVerdictOf(page), 'oom');
  assert.match(await page.locator('.results .host-verdict').textContent(), /Out of system RAM.*latent caching holds .* more than the 24\.0 GiB of RAM/);
  assert.ok((await page.locator('.host-ram .phase-row').count()) >= 4);
  assert.ok((await page.locator('.host-ram .segment.mapped').count()) >= 1, 'the checkpoint\'s mapped pages are marked');
  assert.equal(await page.locator('.host-ram .plan-step').first().getAttribute('data-path'), 'config.process[0].model.layer_offloading_transformer_percent');
  assert.equal(await page.locator('.results .finding[data-code="OL504"]').count(), 1);
  await page.screenshot({ path: path.join(artifacts, 'page-host-ram.png'), fullPage: true });

  await analysisAfter(page, () => page.fill('#ram', '128'));
  assert.equal(await hostVerdictOf(page), 'fits');
  assert.equal(await page.locator('.results .finding[data-code="OL504"]').count(), 0);
  await page.context().close();
});

test('a WebUI generation profile: the seed 4 GB ControlNet case, fixed with --medvram', async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'GTX 1050 Ti'));
  const profile = fs.readFileSync(path.join(sourceDir, 'docs/examples/webui-sd15-controlnet-4gb.yaml'), 'utf8');
  await analysisAfter(page, () => paste(page, 'config-editor', profile));
  // Borderline (3.8 of 3.9 GiB) since the VAE decode comes from the decoder's structure; --medvram is
  // still the needed step.
  assert.equal(await verdictOf(page), 'borderline');
  assert.match(await page.locator('.results .phases').textContent(), /denoising/);
  assert.match(await page.locator('.plan-section h3').first().textContent(), /cheapest first/);
  // The needed step writes the flag into `args`, at the end of the value, and nothing else.
  await analysisAfter(page, () => page.locator('button.apply-needed').click());
  assert.equal(await verdictOf(page), 'fits');
  assert.equal(await editorText(page, 'config-editor'), profile.replace('args: --xformers', 'args: --xformers --medvram'));
  await page.screenshot({ path: path.join(artifacts, 'page-webui.png'), fullPage: true });

  // A mistyped flag in a webui-user.bat is underlined where it stands.
  await analysisAfter(page, () => paste(page, 'config-editor', '@echo off\nset COMMANDLINE_ARGS=--medvarm --xformers\ncall webui.bat\n'));
  const finding = page.locator('.finding[data-code="OL701"]');
  assert.match(await finding.textContent(), /did you mean `--medvram`/);
  assert.equal(await finding.getAttribute('data-line'), '2');
  await page.locator('#config-editor .cm-line', { hasText: 'COMMANDLINE_ARGS' }).locator('.cm-lintRange-warning').first().waitFor();
  await page.context().close();
});

test('a pasted log shows its diagnosis on top; a permalink brings back the same state', { skip: sharedSkip }, async () => {
  const page = await openPage(server.url);
  await started(page);
  await page.locator('#log-details summary').click();
  await analysisAfter(page, () => paste(page, 'log-editor', corpus('logs/018_ai-toolkit_flux-dev-4090.log')));
  const diagnosis = page.locator('.results > .diagnosis');
  assert.equal(await diagnosis.getAttribute('data-phase'), 'quantize');
  assert.match(await diagnosis.textContent(), /Out of memory in quantization/);
  assert.equal(await page.locator('.results > :first-child').getAttribute('class'), 'diagnosis');
  await page.screenshot({ path: path.join(artifacts, 'page-log.png'), fullPage: true });

  // Sharing compresses the state asynchronously: the link is read once the page has shown it.
  await page.locator('#share').click();
  const link = await sharedLink(page);
  assert.ok(link.startsWith(`${server.url}#s=`), link);
  const state = {
    config: await editorText(page, 'config-editor'),
    log: await editorText(page, 'log-editor'),
    verdict: await verdictOf(page),
    results: await page.locator('.results').textContent(),
  };

  const reopened = await openPage(link);
  await started(reopened);
  await reopened.waitForSelector('body[data-settled="true"] .results .diagnosis', { timeout: 15000 });
  assert.equal(await editorText(reopened, 'config-editor'), state.config);
  assert.equal(await editorText(reopened, 'log-editor'), state.log);
  assert.equal(await verdictOf(reopened), state.verdict);
  assert.equal(await reopened.locator('.results').textContent(), state.results);
  await reopened.context().close();
  await page.context().close();
});

// A request the server answers only once the test calls `release`: `prepare` routes it in a new context.
function heldAtServer(pattern) {
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  const prepare = (context) =>
    context.route(pattern, async (route) => {
      await released;
      await route.continue();
    });
  return { prepare, release };
}

test("a first visit's verdict comes with the page, before the module, and is the module's own", async () => {
  // The module is held at the server's door: the example's verdict, made when the site was built, shows without it.
  const { prepare, release } = heldAtServer('**/oomlint.wasm');
  const page = await openPage(server.url, { prepare });
  await firstAnalysis(page);
  const built = await page.locator('.results').innerHTML();
  assert.equal(await verdictOf(page), 'fits');
  assert.equal(await page.locator('#config-name').textContent(), 'flux-lora-24gb.yaml');
  release();
  // The worker's analysis of the same text on the same (default) card draws the same report.
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 3060 12GB'));
  assert.notEqual(await page.locator('.results').innerHTML(), built);
  await analysisAfter(page, () => page.selectOption('#gpu', ''));
  assert.equal(await page.locator('.results').innerHTML(), built);
  await page.context().close();
});

test('the first verdict comes before the editor bundle, which then takes over the text, selection and findings', async () => {
  // editor.js is held at the server's door until the test lets it through: whatever the page shows
  // before then, it shows without CodeMirror.
  const { prepare, release } = heldAtServer('**/editor.js');
  const page = await openPage(server.url, { prepare });
  await firstAnalysis(page);
  const plain = page.locator('#config-editor > textarea.plain');
  assert.equal(await page.locator('.cm-editor').count(), 0, 'no CodeMirror before editor.js has arrived');
  assert.notEqual(await page.evaluate(() => document.body.dataset.editor), 'ready');
  assert.equal(await plain.inputValue(), fs.readFileSync(path.join(sourceDir, 'docs/examples/flux-lora-24gb.yaml'), 'utf8'));
  assert.ok(await verdictOf(page));

  // The plain view is analysed as it is edited, and the plan applies to it.
  await analysisAfter(page, () => page.selectOption('#gpu', 'GTX 1050 Ti'));
  const profile = fs.readFileSync(path.join(sourceDir, 'docs/examples/webui-sd15-controlnet-4gb.yaml'), 'utf8');
  await analysisAfter(page, () => plain.fill(profile));
  assert.equal(await verdictOf(page), 'borderline');
  await analysisAfter(page, () => page.locator('button.apply-needed').click());
  assert.equal(await verdictOf(page), 'fits');
  assert.equal(await plain.inputValue(), profile.replace('args: --xformers', 'args: --xformers --medvram'));

  // A finding from the plain view, a selection made there (backwards), then the editor arrives.
  const bat = '@echo off\nset COMMANDLINE_ARGS=--medvarm --xformers\ncall webui.bat\n';
  await analysisAfter(page, () => plain.fill(bat));
  assert.equal(await page.locator('.finding[data-code="OL701"]').getAttribute('data-line'), '2');
  const typo = { from: bat.indexOf('--medvarm'), to: bat.indexOf('--medvarm') + '--medvarm'.length };
  await plain.evaluate((el, { from, to }) => {
    el.focus();
    el.setSelectionRange(from, to, 'backward');
  }, typo);
  await page.waitForSelector('body[data-editor="loading"]'); // the page has asked for editor.js
  const count = await analysedCount(page);
  release();
  await editorReady(page);

  assert.equal(await page.locator('#config-editor > textarea').count(), 0, 'the textarea is gone');
  assert.equal(await editorText(page, 'config-editor'), bat);
  const taken = await page.locator('#config-editor').evaluate((el) => {
    const { main } = el.editorView.state.selection;
    return { anchor: main.anchor, head: main.head, focused: el.editorView.hasFocus };
  });
  assert.deepEqual(taken, { anchor: typo.to, head: typo.from, focused: true });
  // The finding is underlined where the report put it, without a new analysis.
  const underline = page.locator('#config-editor .cm-line', { hasText: 'COMMANDLINE_ARGS' }).locator('.cm-lintRange-warning');
  await underline.first().waitFor();
  assert.match(await underline.first().textContent(), /medvarm/);
  assert.equal(await analysedCount(page), count);

  // From here the editor is the pane: typing in it is analysed.
  await analysisAfter(page, async () => {
    await page.locator('#config-editor .cm-content').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('set COMMANDLINE_ARGS=--lowvram\n');
  });
  assert.equal(await editorText(page, 'config-editor'), `${bat}set COMMANDLINE_ARGS=--lowvram\n`);
  await page.context().close();
});

test('a ComfyUI workflow: borderline on 8 GB, the plan writes fewer frames; a dropped PNG shows its workflow', async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 3060 8GB'));
  const workflow = fs.readFileSync(path.join(sourceDir, 'tests/fixtures/comfyui/wan21-14b-720p-81-frames-api.json'), 'utf8');
  await analysisAfter(page, () => paste(page, 'config-editor', workflow));
  // Wan 2.1 14B at 1280×720×81 through ComfyUI's own blocks: 7.6 GiB expected, the range's top over the card.
  assert.equal(await verdictOf(page), 'borderline');
  assert.match(await page.locator('.plan-section h3').first().textContent(), /cheapest first/);
  // The needed workflow step is written into the latent node's value; the launch flag stays advice.
  await analysisAfter(page, () => page.locator('button.apply-needed').click());
  assert.equal(await editorText(page, 'config-editor'), workflow.replace('"length": 81', '"length": 41'));
  await page.screenshot({ path: path.join(artifacts, 'page-comfyui.png'), fullPage: true });

  // A PNG ComfyUI saved: the core reads its `prompt` chunk and the pane shows that JSON, analysed.
  const png = path.join(sourceDir, 'tests/fixtures/comfyui/png-sdxl-prompt-text-chunk.png');
  await analysisAfter(page, () => page.setInputFiles('#open-file', png));
  assert.match(await page.locator('#config-name').textContent(), /png-sdxl-prompt-text-chunk\.png \(its prompt chunk\)/);
  assert.match(await editorText(page, 'config-editor'), /"class_type": "EmptySD3LatentImage"/);
  assert.ok(await page.locator('.finding[data-code="OL902"]').count());
  await page.context().close();
});

test('a musubi-tuner command line: out of memory on 24 GB, the plan adds --fp8_base to the command', async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 4090'));
  const command = fs.readFileSync(path.join(sourceDir, 'tests/fixtures/musubi-tuner/hunyuan-video-bf16-24gb.sh'), 'utf8');
  await analysisAfter(page, () => paste(page, 'config-editor', command));
  assert.equal(await verdictOf(page), 'oom');
  assert.equal(await page.locator('.finding[data-code="OL501"]').getAttribute('data-line'), '8');
  assert.match(await page.locator('.results .phases').textContent(), /train/);
  // The needed step is a new argument at the end of the command line (as `oomlint fix` writes it).
  await analysisAfter(page, () => page.locator('button.apply-needed').click());
  assert.equal(await verdictOf(page), 'fits');
  assert.equal(await editorText(page, 'config-editor'), command.replace('--learning_rate 2e-4\n', '--learning_rate 2e-4 --fp8_base\n'));
  await page.screenshot({ path: path.join(artifacts, 'page-musubi.png'), fullPage: true });
  await page.context().close();
});

test('a OneTrainer config: named as one, underlined at its key, and neither checked nor estimated', async () => {
  const page = await openPage(server.url);
  await started(page);
  const preset = fs.readFileSync(path.join(sourceDir, 'tests/fixtures/other-trainers/OL110-onetrainer-lora.json'), 'utf8');
  await analysisAfter(page, () => paste(page, 'config-editor', preset));
  const findings = page.locator('.results .finding');
  assert.equal(await findings.count(), 1);
  assert.equal(await findings.first().getAttribute('data-code'), 'OL110');
  assert.equal(await findings.first().getAttribute('data-line'), '5');
  assert.match(await findings.first().textContent(), /OneTrainer/);
  assert.equal(await page.locator('.results .verdict').count(), 0);
  assert.equal(await page.locator('.results .phases').count(), 0);
  await page.screenshot({ path: path.join(artifacts, 'page-onetrainer.png'), fullPage: true });
  await page.context().close();
});

test('a command line and its dataset TOML opened together are one job; taking the TOML out changes the estimate', async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 4090'));
  const dir = path.join(sourceDir, 'tests/calibration/musubi-tuner/configs');
  const files = ['framepack_640_dataset.toml', 'framepack_default.sh'].map((f) => path.join(dir, f));
  // Opened together: the command line goes to the pane, the TOML it names beside it.
  await analysisAfter(page, () => page.setInputFiles('#open-file', files));
  assert.equal(await page.locator('#config-name').textContent(), 'framepack_default.sh');
  assert.equal(await page.locator('#companions .companion').getAttribute('data-path'), 'framepack_640_dataset.toml');
  // FramePack's 640² section from the dataset (39.0 GiB, oomlint-calibrate's figure for the same two files).
  assert.equal(await verdictOf(page), 'oom');
  assert.match(await page.locator('.results .verdict').textContent(), /39\.0 GiB/);
  await page.screenshot({ path: path.join(artifacts, 'page-job.png'), fullPage: true });
  // A permalink carries the job's other file too.
  await page.locator('#share').click();
  const link = await sharedLink(page);
  const restored = await openPage(link);
  await firstAnalysis(restored);
  assert.equal(await restored.locator('#companions .companion').getAttribute('data-path'), 'framepack_640_dataset.toml');
  assert.match(await restored.locator('.results .verdict').textContent(), /39\.0 GiB/);
  await restored.context().close();
  // Without the TOML the command line alone is estimated at musubi-tuner's default resolution.
  await analysisAfter(page, () => page.locator('#companions .companion button').click());
  assert.equal(await page.locator('#companions .companion').count(), 0);
  assert.doesNotMatch(await page.locator('.results .verdict').textContent(), /39\.0 GiB/);
  // "Add a file to this job" brings it back.
  await analysisAfter(page, () => page.setInputFiles('#add-file', files[0]));
  assert.match(await page.locator('.results .verdict').textContent(), /39\.0 GiB/);
  await page.context().close();
});

test('a workflow with the launch line ComfyUI runs it under added to its job: the estimate takes the line\'s flags', async () => {
  const page = await openPage(server.url);
  await started(page);
  await analysisAfter(page, () => page.selectOption('#gpu', 'RTX 3060 12GB'));
  const workflow = path.join(sourceDir, 'tests/fixtures/comfyui/wan21-14b-720p-81-frames-api.json');
  await analysisAfter(page, () => page.setInputFiles('#open-file', workflow));
  assert.match(await page.locator('.results .verdict').textContent(), /Assumes ComfyUI's memory manager at .*; ComfyUI's defaults/);
  const alone = await page.locator('.results .verdict').textContent();
  // The portable build's batch file, added to the job as a file.
  await analysisAfter(page, () =>
    page.setInputFiles('#add-file', { name: 'run_nvidia_gpu.bat', mimeType: 'text/plain',
      buffer: Buffer.from('.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build --novram\r\npause\r\n') }));
  assert.equal(await page.locator('#companions .companion').getAttribute('data-path'), 'run_nvidia_gpu.bat');
  const verdict = await page.locator('.results .verdict').textContent();
  assert.match(verdict, /Assumes .*; ComfyUI launched with --windows-standalone-build --novram \(run_nvidia_gpu\.bat\)/);
  assert.notEqual(verdict, alone);
  await page.context().close();

  // Opened together, the batch file first: the core says which is the workflow, and that goes to the pane.
  const together = await openPage(server.url);
  await started(together);
  await analysisAfter(together, () => together.selectOption('#gpu', 'RTX 3060 12GB'));
  await analysisAfter(together, () =>
    together.setInputFiles('#open-file', [
      { name: 'run_nvidia_gpu.bat', mimeType: 'text/plain', buffer: Buffer.from('python main.py --novram\n') },
      { name: 'wan.json', mimeType: 'application/json', buffer: fs.readFileSync(workflow) },
    ]));
  assert.equal(await together.locator('#config-name').textContent(), 'wan.json');
  assert.equal(await together.locator('#companions .companion').getAttribute('data-path'), 'run_nvidia_gpu.bat');
  assert.match(await together.locator('.results .verdict').textContent(), /Assumes .*; ComfyUI launched with --novram \(run_nvidia_gpu\.bat\)/);
  await together.context().close();
});

test('a file opened from disk, or a PNG dropped on the pane, lands in it', async () => {
  const page = await openPage(server.url);
  await started(page);
  const wan = path.join(sourceDir, 'docs/examples/wan21-video-lora.yaml');
  await analysisAfter(page, () => page.setInputFiles('#open-file', wan));
  assert.equal(await editorText(page, 'config-editor'), fs.readFileSync(wan, 'utf8'));
  assert.equal(await page.locator('#config-name').textContent(), 'wan21-video-lora.yaml');
  assert.ok(await page.locator('.finding[data-code="OL201"]').count());

  // A PNG dropped on the config pane (a drop event carrying the file, as the browser sends it).
  const png = fs.readFileSync(path.join(sourceDir, 'tests/fixtures/comfyui/png-sdxl-prompt-text-chunk.png')).toString('base64');
  await analysisAfter(page, () =>
    page.evaluate((base64) => {
      const file = new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'dropped.png', { type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(file);
      const zone = document.getElementById('config-pane');
      for (const type of ['dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }, png),
  );
  assert.equal(await page.locator('#config-name').textContent(), 'dropped.png (its prompt chunk)');
  assert.match(await editorText(page, 'config-editor'), /"class_type": "EmptySD3LatentImage"/);
  await page.context().close();
});

test('pasted markup stays text', async () => {
  const page = await openPage(server.url);
  await started(page);
  const hostile = 'job: extension\nconfig:\n  name: "<img src=x onerror=window.__pwned=1>"\n  process:\n    - type: sd_trainer\n      "<img src=x onerror=window.__pwned=2>": 1\n';
  await analysisAfter(page, () => paste(page, 'config-editor', hostile));
  const finding = page.locator('.finding[data-code="OL201"] .message');
  assert.match(await finding.textContent(), /<img src=x onerror=window\.__pwned=2>/);
  assert.equal(await page.locator('.results img, #config-editor img').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await page.context().close();
});

test('usable at 360 px and in the dark scheme', async () => {
  const page = await openPage(server.url, { width: 360, height: 780, colorScheme: 'dark' });
  await started(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 360 px`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(13, 17, 23)');
  // Keyboard: the GPU picker and the phase segments are reachable with Tab.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'gpu');
  assert.ok((await page.locator('.segment[tabindex="0"]').count()) > 5);
  await page.screenshot({ path: path.join(artifacts, 'page-360-dark.png'), fullPage: true });
  await page.context().close();
});

test('the widget page renders each widget\'s verdict', async () => {
  const page = await openPage(`${server.url}widget-example.html`, { width: 900, height: 1000 });
  for (const [id, verdict] of [['fits', 'fits'], ['oom', 'oom'], ['musubi', 'oom'], ['editable', 'oom']]) {
    await page.waitForSelector(`#${id}[data-verdict]`, { timeout: 15000 });
    assert.equal(await page.getAttribute(`#${id}`, 'data-verdict'), verdict, id);
  }
  // The `ram` attribute gives the host-RAM verdict; without it the figure shows, unknown.
  assert.equal(await page.getAttribute('#fits', 'data-host-verdict'), 'fits');
  assert.equal(await page.getAttribute('#oom', 'data-host-verdict'), 'unknown');
  assert.match(await page.locator('#fits .host-verdict').textContent(), /Fits in RAM/);
  // Styles stay inside the shadow root: the host page's paragraphs keep their own font.
  const hostFont = await page.evaluate(() => getComputedStyle(document.querySelector('article p')).fontFamily);
  assert.match(hostFont, /Georgia/);
  assert.match(await page.locator('#oom .verdict').textContent(), /Out of memory/);
  await page.locator('#oom .findings').waitFor();
  // A musubi-tuner command line, as a guide would quote it: its first needed change is musubi-tuner's own.
  assert.match(await page.locator('#musubi .findings').textContent(), /fp8_base false → true/);

  // The editable widget applies its needed steps.
  await page.locator('#editable button.apply-needed').click();
  await page.waitForFunction(() => document.querySelector('#editable').dataset.verdict === 'fits', null, { timeout: 15000 });
  await page.screenshot({ path: path.join(artifacts, 'widget.png'), fullPage: true });
  await page.context().close();
});

test('no request left the local server and nothing failed', () => {
  assert.ok(requests.length > 10, 'requests were recorded');
  const foreign = requests.filter((url) => !url.startsWith(server.url));
  assert.deepEqual(foreign, []);
  assert.deepEqual(problems, []);
});
