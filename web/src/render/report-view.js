// A whole Report (DESIGN.md), as the page and the widget show it: a log's diagnosis on top, then
// the config's verdict, phase chart, findings and plan.
import { renderDiagnosis } from './diagnosis.js';
import { h } from './dom.js';
import { renderFindings } from './findings.js';
import { renderHost } from './host.js';
import { renderPlan } from './plan.js';
import { renderPhases } from './phases.js';
import { renderVerdict } from './verdict.js';

/**
 * @param report  the parsed Report JSON
 * @param handlers  { onJump(diagnostic, file), onRule(code), onApply(steps) }; each optional
 */
export function renderReport(report, handlers = {}) {
  if (report.error) return [h('p', { class: 'report-error', role: 'alert' }, `oomlint could not analyse this: ${report.error}`)];
  const logs = report.files.filter((f) => f.kind === 'log');
  const configs = report.files.filter((f) => f.kind !== 'log');
  const out = [];
  for (const log of logs) {
    if (log.log) out.push(renderDiagnosis(log.log));
    if (log.diagnostics.length) {
      out.push(h('section', { class: 'log-findings' }, h('h3', {}, 'From the log'), renderFindings(log.diagnostics, { ...handlers, source: log })));
    }
  }
  for (const file of configs) {
    if (file.estimate) out.push(renderVerdict(file.estimate), renderPhases(file.estimate));
    out.push(h('section', { class: 'config-findings' }, h('h3', {}, `Findings (${file.diagnostics.length})`), renderFindings(file.diagnostics, { ...handlers, source: file })));
    if (file.estimate) out.push(renderPlan(file.plan ?? [], { ...handlers, kind: file.kind }));
    if (file.estimate?.host) out.push(renderHost(file, handlers));
  }
  return out;
}
