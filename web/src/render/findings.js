// The findings list: severity, code (→ its rule page), message and position (→ the line).
import { h } from './dom.js';
import { where } from './format.js';

const order = { error: 0, warning: 1, info: 2 };

/**
 * @param diagnostics  the Report's diagnostics of one file
 * @param onJump(diagnostic)  called when a finding is activated; omit for a static list
 * @param onRule(code)  called when a rule code is activated
 */
export function renderFindings(diagnostics, { onJump, onRule, source } = {}) {
  if (diagnostics.length === 0) return h('p', { class: 'no-findings' }, 'No findings.');
  const sorted = [...diagnostics].sort(
    (a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3) || a.range.start.line - b.range.start.line,
  );
  return h(
    'ul',
    { class: 'findings' },
    sorted.map((d) =>
      h(
        'li',
        { class: ['finding', `sev-${d.severity}`], 'data-code': d.code, 'data-line': d.range.start.line },
        h('span', { class: 'sev', title: d.severity }, d.severity),
        ' ',
        onRule ? h('button', { class: 'code link', type: 'button', onclick: () => onRule(d.code), title: `What ${d.code} means` }, d.code) : h('code', { class: 'code' }, d.code),
        ' ',
        onJump
          ? h('button', { class: 'message link', type: 'button', onclick: () => onJump(d, source) }, d.message)
          : h('span', { class: 'message' }, d.message),
        ' ',
        h('span', { class: 'where' }, where(d.range)),
      ),
    ),
  );
}
