// The Report counts columns in Unicode code points (DESIGN.md); CodeMirror and a textarea's
// selection count UTF-16 units. `doc` is a CodeMirror Text or textDoc(string): both have
// `length`, `lines` and `line(n)` → {from, to, text}.

/** A string with the part of CodeMirror's Text interface that positions need. */
export function textDoc(text) {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return {
    length: text.length,
    lines: starts.length,
    line(n) {
      const from = starts[n - 1];
      const to = n < starts.length ? starts[n] - 1 : text.length;
      return { from, to, text: text.slice(from, to) };
    },
  };
}

/** The document offset of a 1-based {line, column} (column in code points), clamped to the text. */
export function offsetAt(doc, { line, column }) {
  if (line > doc.lines) return doc.length;
  const text = doc.line(Math.max(1, line));
  let offset = text.from;
  let at = 1;
  for (const ch of text.text) {
    if (at >= column) break;
    offset += ch.length;
    at += 1;
  }
  // A column past the end stands for the line break, then the start of the next line.
  return at < column ? Math.min(text.to + (column - at), doc.length) : offset;
}

export function rangeAt(doc, range) {
  const from = offsetAt(doc, range.start);
  return { from, to: Math.max(from, offsetAt(doc, range.end)) };
}

/**
 * Plan steps (each with the core's `edit`: a range of the analysed text and its new text) as
 * {from, to, insert} changes in ascending order. Overlapping edits cannot both apply: the later
 * one is left out.
 */
export function planChanges(doc, steps) {
  const changes = steps
    .map((s) => ({ ...rangeAt(doc, s.edit.range), insert: s.edit.text }))
    .sort((a, b) => a.from - b.from);
  const accepted = [];
  for (const change of changes) {
    const previous = accepted.at(-1);
    if (previous && change.from < previous.to) continue;
    accepted.push(change);
  }
  return accepted;
}
