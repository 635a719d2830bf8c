// <oomlint-widget>: the report for one config, for documentation pages.
//
//   <script src="oomlint-widget.js" defer></script>
//   <oomlint-widget gpu="RTX 4090">…yaml…</oomlint-widget>
//   <oomlint-widget src="job.yaml" vram="16" ram="32" editable></oomlint-widget>
//
// One script (plus oomlint.wasm beside it). Loaded on a page it defines the element; started as a
// worker (by itself) it is the analysis engine, so the host page's thread never runs the core.
import { WorkerClient, latestOnly } from '../engine/client.js';
import { serve } from '../engine/engine.js';
import { InlineClient } from '../engine/inline-client.js';
import { clear, h } from '../render/dom.js';
import reportCss from '../render/report.css';
import { renderReport } from '../render/report-view.js';
import widgetCss from './widget.css';

const DEBOUNCE_MS = 200;

// Strips the indentation that the host page's HTML gave the config.
function dedent(text) {
  const lines = text.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(common)).join('\n') + '\n';
}

// A Report position (1-based line, column in code points) as an index into a JS string.
function indexAt(text, { line, column }) {
  let index = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', index);
    if (next < 0) return text.length;
    index = next + 1;
  }
  for (let c = 1; c < column && index < text.length && text[index] !== '\n'; c++) {
    index += text.codePointAt(index) > 0xffff ? 2 : 1;
  }
  return index;
}

function defineWidget(scriptUrl) {
  let client = null;
  const sharedClient = () => {
    if (client) return client;
    try {
      const worker = new WorkerClient(() => new Worker(scriptUrl));
      worker.start();
      client = worker;
    } catch {
      // A script from another origin cannot start a worker: analyse on this thread instead.
      client = new InlineClient(new URL('oomlint.wasm', scriptUrl).href);
    }
    return client;
  };

  class OomlintWidget extends HTMLElement {
    static observedAttributes = ['gpu', 'vram', 'ram', 'src'];

    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      const css = reportCss + widgetCss;
      if ('adoptedStyleSheets' in root) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        root.adoptedStyleSheets = [sheet];
      } else {
        root.append(h('style', {}, css));
      }
      this.results = h('div', { class: 'results', 'aria-live': 'polite' }, h('p', { class: 'hint' }, 'Analysing…'));
      this.header = h('div', { class: 'header' });
      root.append(this.header);
      if (this.hasAttribute('editable')) {
        this.editor = h('textarea', { class: 'editor', spellcheck: 'false', 'aria-label': 'Job config', oninput: () => this.schedule() });
        root.append(this.editor);
      }
      root.append(this.results);
      this.config = dedent(this.textContent);
      this.analyseLatest = latestOnly((input) => sharedClient().analyze(input));
      this.load();
    }

    attributeChangedCallback(name, before, after) {
      if (!this.shadowRoot || before === after) return;
      if (name === 'src') this.load();
      else this.schedule();
    }

    async load() {
      const src = this.getAttribute('src');
      if (src) {
        try {
          const response = await fetch(new URL(src, document.baseURI));
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          this.config = await response.text();
        } catch (error) {
          this.showError(`could not load ${src}: ${error.message}`);
          return;
        }
      }
      if (this.editor) this.editor.value = this.config;
      this.analyse();
    }

    schedule() {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.analyse(), DEBOUNCE_MS);
    }

    async analyse() {
      const config = this.editor ? this.editor.value : this.config;
      const gpu = this.getAttribute('gpu') ?? '';
      const vramGib = Number(this.getAttribute('vram')) || 0;
      const ramGib = Number(this.getAttribute('ram')) || 0;
      try {
        const result = await this.analyseLatest({ config, path: this.getAttribute('src') ?? 'config.yaml', gpu, vramGib, ramGib });
        if (!result) return;
        this.analysed = config;
        const estimate = result.report.files?.[0]?.estimate;
        clear(this.header).append(h('span', { class: 'brand' }, 'oomlint'), estimate ? ` · ${estimate.gpu.name}` : '');
        clear(this.results).append(...renderReport(result.report, this.editor ? { onApply: (steps) => this.apply(steps) } : {}));
        this.dataset.verdict = estimate?.verdict ?? 'none';
        this.dataset.hostVerdict = estimate?.host?.verdict ?? 'none';
      } catch (error) {
        this.showError(error.message);
      }
    }

    // Writes plan steps into the editable config (positions refer to the analysed text).
    apply(steps) {
      if (this.editor.value !== this.analysed) return;
      const text = this.editor.value;
      const edits = steps
        .map((s) => ({ from: indexAt(text, s.edit.range.start), to: indexAt(text, s.edit.range.end), insert: s.edit.text }))
        .sort((a, b) => b.from - a.from);
      let bound = Infinity;
      for (const e of edits) {
        if (e.to > bound) continue;
        this.editor.setRangeText(e.insert, e.from, e.to);
        bound = e.from;
      }
      this.analyse();
    }

    showError(message) {
      clear(this.results).append(h('p', { class: 'report-error', role: 'alert' }, message));
      this.dataset.verdict = 'error';
    }
  }

  if (!customElements.get('oomlint-widget')) customElements.define('oomlint-widget', OomlintWidget);
}

if (typeof document === 'undefined') {
  serve(self, new URL('oomlint.wasm', self.location.href).href);
} else {
  defineWidget(document.currentScript?.src ?? new URL('oomlint-widget.js', document.baseURI).href);
}
