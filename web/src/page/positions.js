// The Report counts columns in Unicode code points (DESIGN.md); CodeMirror counts UTF-16 units.

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
