// One editing pane (the config or the log). The first verdict needs no editor, so a pane starts as a
// plain textarea and becomes a CodeMirror editor once the page has imported the editor bundle
// (editor.js, built from editors.js), keeping its text, selection, scroll position and findings.
// main.js reaches the text only through a Pane, whichever of the two holds it.
import { planChanges, rangeAt, textDoc } from './positions.js';

export class Pane {
  /** `onChange(text)` after every change of the text, setText's included (as CodeMirror's listener does). */
  constructor(host, { label, language, onChange }) {
    this.host = host;
    this.options = { label, language, onChange };
    this.editors = null; // the editor bundle's exports, once loaded
    this.view = null; // its EditorView in `host`
    this.diagnostics = []; // the findings on show, re-drawn by the editor when it takes over
    // A textarea's value keeps the text as given, bar line breaks (CR LF becomes LF), which
    // CodeMirror normalises the same way: the core sees the same text before and after the swap.
    this.plain = document.createElement('textarea');
    this.plain.className = 'plain';
    for (const [name, value] of Object.entries({ 'aria-label': label, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', wrap: 'off' })) {
      this.plain.setAttribute(name, value);
    }
    this.plain.addEventListener('input', () => onChange(this.plain.value));
    host.append(this.plain);
  }

  get text() {
    return this.view ? this.view.state.doc.toString() : this.plain.value;
  }

  /** Replaces the text. */
  setText(text) {
    if (this.view) {
      this.editors.setText(this.view, text);
      return;
    }
    this.plain.value = text; // a script's assignment fires no input event
    this.options.onChange(this.plain.value);
  }

  /** The Report's findings for this pane's text (underlined once the editor is there). */
  showFindings(diagnostics) {
    this.diagnostics = diagnostics;
    if (this.view) this.editors.showFindings(this.view, diagnostics);
  }

  /** Selects a finding's range and brings it into view. */
  jumpTo(range) {
    if (this.view) {
      this.editors.jumpTo(this.view, range);
      return;
    }
    const { from, to } = rangeAt(textDoc(this.plain.value), range);
    this.plain.focus();
    this.plain.setSelectionRange(from, to);
  }

  /** Writes plan steps into the text; returns how many applied. */
  applyEdits(steps) {
    if (this.view) return this.editors.applyEdits(this.view, steps);
    const changes = planChanges(textDoc(this.plain.value), steps);
    // From the end, so that the earlier ranges still hold. setRangeText fires no input event.
    for (const { from, to, insert } of [...changes].reverse()) this.plain.setRangeText(insert, from, to);
    this.options.onChange(this.plain.value);
    return changes.length;
  }

  /** Whether Ctrl+Z takes back applied plan steps (the plain view's setRangeText is not undoable). */
  get undoable() {
    return this.view !== null;
  }

  /** Swaps the textarea for a CodeMirror editor from the editor bundle's exports. */
  upgrade(editors) {
    const { plain, host } = this;
    const focused = document.activeElement === plain;
    const backward = plain.selectionDirection === 'backward';
    const selection = { anchor: backward ? plain.selectionEnd : plain.selectionStart, head: backward ? plain.selectionStart : plain.selectionEnd };
    const scrollTop = plain.scrollTop;
    this.view = editors.createEditor(host, { ...this.options, text: plain.value, selection });
    this.editors = editors;
    plain.remove(); // the editor lives in a shadow root; the textarea would only sit unrendered in the light DOM
    this.view.scrollDOM.scrollTop = scrollTop;
    if (focused) this.view.focus();
    editors.showFindings(this.view, this.diagnostics);
  }
}
