// System RAM beside the VRAM: the host-RAM verdict (or "give your RAM" when it is unknown), its phase
// chart against the machine's RAM, what it leaves out, and its plan. Rendered from the core's
// estimate.host and host_plan only.
import { h } from './dom.js';
import { gib, phaseLabel } from './format.js';
import { renderPhases } from './phases.js';
import { renderPlan } from './plan.js';

const headline = { fits: 'Fits in RAM', borderline: 'Borderline RAM', oom: 'Out of system RAM', unknown: 'System RAM' };

function verdictLine(host) {
  const { verdict, ram_bytes: ram, peak_bytes: peak, uncertainty_bytes: spread, peak_phase: phase } = host;
  const deciding = host.phases.find((p) => p.name === host.verdict_phase) ?? host.phases[0];
  const mapped = (p) => (p.file_backed_bytes > 0 ? `, ${gib(p.file_backed_bytes)} of it the checkpoint's mapped pages` : '');
  if (host.log_killed) return `the attached log's run was killed for host RAM; this estimate's peak is ${gib(peak)} in ${phaseLabel(phase)}.`;
  if (verdict === 'unknown') return `peak ${gib(peak)} ± ${gib(spread)} in ${phaseLabel(phase)}${mapped(deciding)}. Give the machine's RAM for a verdict.`;
  if (verdict === 'oom') {
    return `${phaseLabel(deciding.name)} holds ${gib(deciding.peak_bytes)} ± ${gib(deciding.uncertainty_bytes)}${mapped(deciding)}, more than the ${gib(ram)} of RAM.`;
  }
  const detail = `peak ${gib(peak)} ± ${gib(spread)} in ${phaseLabel(phase)}${mapped(host.phases.find((p) => p.name === phase))} on ${gib(ram)} of RAM`;
  return verdict === 'borderline' ? `${detail}: it may need swap or a larger page file.` : `${detail}: ${gib(ram - peak)} to spare.`;
}

/** @param file  a config's FileReport with estimate.host; handlers as renderPlan's */
export function renderHost(file, handlers = {}) {
  const host = file.estimate.host;
  const verdict = host.verdict;
  const parts = [
    h(
      'div',
      { class: ['host-verdict', `verdict-${verdict}`], 'data-host-verdict': verdict, role: 'status' },
      h('strong', { class: 'verdict-word' }, headline[verdict] ?? verdict),
      h('span', { class: 'verdict-detail' }, ' ', verdictLine(host)),
    ),
  ];
  if (verdict !== 'unknown') {
    parts.push(
      renderPhases(host, {
        bytes: host.ram_bytes,
        caption: host.ram_bytes
          ? `Estimated system RAM per phase; the line is the machine's ${gib(host.ram_bytes)}, hatched segments are the checkpoint's mapped pages.`
          : "Estimated system RAM per phase; hatched segments are the checkpoint's mapped pages.",
      }),
    );
  }
  for (const note of host.notes) parts.push(h('p', { class: 'host-note' }, `Not counted: ${note}.`));
  if ((file.host_plan ?? []).length) parts.push(renderPlan(file.host_plan, { ...handlers, kind: 'host' }));
  return h('section', { class: 'host-ram', 'aria-label': 'System RAM' }, h('h3', {}, 'System RAM'), parts);
}
