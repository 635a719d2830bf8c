// Renders a rule page (the subset of Markdown docs/rules/ uses: headings, paragraphs, lists, fenced
// code, `code`, **bold**) as DOM nodes. Text stays text: nothing is parsed as HTML.
import { h } from './dom.js';

function inline(text) {
  const parts = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(match[1] !== undefined ? h('code', {}, match[1]) : h('strong', {}, match[2]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function renderMarkdown(markdown) {
  const out = [];
  const lines = markdown.split('\n');
  let paragraph = [];
  let list = null;
  const flush = () => {
    if (paragraph.length) out.push(h('p', {}, inline(paragraph.join(' '))));
    paragraph = [];
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('```')) {
      flush();
      const code = [];
      while (++i < lines.length && !lines[i].startsWith('```')) code.push(lines[i]);
      out.push(h('pre', {}, h('code', {}, code.join('\n'))));
    } else if (/^#{1,6} /.test(line)) {
      flush();
      const level = line.indexOf(' '); // the number of #s
      out.push(h(`h${level}`, {}, inline(line.slice(line.indexOf(' ') + 1))));
    } else if (/^\s*[-*] /.test(line)) {
      if (paragraph.length) flush();
      if (!list) out.push((list = h('ul')));
      list.append(h('li', {}, inline(line.replace(/^\s*[-*] /, ''))));
    } else if (line.trim() === '') {
      flush();
    } else if (list && /^\s+\S/.test(line)) {
      list.lastChild.append(' ', ...inline(line.trim()));
    } else {
      list = null;
      paragraph.push(line.trim());
    }
  }
  flush();
  return out;
}
