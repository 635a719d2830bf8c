// The CodeMirror editors (config and log), and how findings and plan edits reach them. Built as its
// own bundle (editor.js), which the page imports after its first verdict: the page works on a plain
// textarea until then (pane.js).
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

import { planChanges, rangeAt } from './positions.js';

// Colours from the page's custom properties, so the editor follows the light or dark scheme.
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--syn-key)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--syn-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syn-atom)' },
  { tag: [tags.comment, tags.lineComment], color: 'var(--syn-comment)', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.meta, tags.labelName, tags.typeName], color: 'var(--syn-meta)' },
]);

const theme = EditorView.theme({
  '&': { color: 'var(--ol-fg)', backgroundColor: 'var(--ol-bg)', height: '100%' },
  '.cm-content': { caretColor: 'var(--ol-fg)', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-gutters': { backgroundColor: 'var(--ol-panel)', color: 'var(--ol-muted)', borderRight: '1px solid var(--ol-border)' },
  '.cm-activeLine': { backgroundColor: 'var(--ol-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--ol-active-line)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--ol-selection) !important' },
  '.cm-scroller': { overflow: 'auto' },
});

const looksLikeJson = (text) => /^\s*[[{]/.test(text);

/**
 * An editor in `host` holding `text` and `selection` ({anchor, head}: UTF-16 offsets, as a
 * textarea's); `onChange(text)` after every edit. `language`: 'config' or 'log'.
 * It lives in a shadow root: there CodeMirror's styles are constructed style sheets, which the
 * page's Content Security Policy allows, where a <style> element would need 'unsafe-inline'.
 */
export function createEditor(host, { text = '', selection, label, language, onChange }) {
  const root = host.attachShadow({ mode: 'open' });
  const languageSlot = new Compartment();
  const languageFor = (doc) => (language === 'config' ? (looksLikeJson(doc) ? json() : yaml()) : []);
  let isJson = looksLikeJson(text);
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: text,
      selection: selection && EditorSelection.single(selection.anchor, selection.head),
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        syntaxHighlighting(highlight),
        languageSlot.of(languageFor(text)),
        lintGutter(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        theme,
        EditorView.contentAttributes.of({ 'aria-label': label, spellcheck: 'false', autocapitalize: 'off' }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const doc = update.state.doc.toString();
          if (language === 'config' && looksLikeJson(doc) !== isJson) {
            isJson = !isJson;
            view.dispatch({ effects: languageSlot.reconfigure(languageFor(doc)) });
          }
          onChange(doc);
        }),
      ],
    }),
  });
  host.editorView = view; // for the browser tests, which read the text the editor holds
  return view;
}

export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

const severities = { error: 'error', warning: 'warning', info: 'info' };

/** The Report's findings for this editor's text as underlines and gutter markers. */
export function showFindings(view, diagnostics) {
  const doc = view.state.doc;
  const marks = diagnostics.map((d) => ({
    ...rangeAt(doc, d.range),
    severity: severities[d.severity] ?? 'info',
    source: d.code,
    message: d.message,
  }));
  view.dispatch(setDiagnostics(view.state, marks));
}

/** Selects a finding's range and brings it into view. */
export function jumpTo(view, range) {
  const { from, to } = rangeAt(view.state.doc, range);
  view.dispatch({ selection: EditorSelection.single(from, to), effects: EditorView.scrollIntoView(from, { y: 'center' }) });
  view.focus();
}

/** Writes plan steps as one undoable change (positions.js: planChanges); returns how many applied. */
export function applyEdits(view, steps) {
  const changes = planChanges(view.state.doc, steps);
  view.dispatch({ changes, userEvent: 'input.apply', scrollIntoView: true });
  return changes.length;
}
