// The one-line answer: does the job fit the card, and where is its peak.
import { h } from './dom.js';
import { gib, phaseLabel } from './format.js';

const headline = { fits: 'Fits', borderline: 'Borderline', oom: 'Out of memory' };

export function renderVerdict(estimate) {
  const { verdict, gpu, peak_bytes: peak, low_bytes: low, high_bytes: high, peak_phase: phase } = estimate;
  const margin = gpu.vram_bytes - peak;
  const range = `${gib(peak)} (${gib(low)}–${gib(high)})`;
  const detail =
    verdict === 'oom'
      ? `${phaseLabel(phase)} needs ${range}, ${gib(-margin)} more than the ${gpu.name} has (${gib(gpu.vram_bytes)}).`
      : verdict === 'borderline'
        ? `peak ${range} in ${phaseLabel(phase)}: the upper part of the range is over the ${gpu.name}'s ${gib(gpu.vram_bytes)}.`
        : `peak ${range} in ${phaseLabel(phase)}, on the ${gpu.name} (${gib(gpu.vram_bytes)}): ${gib(margin)} to spare.`;
  return h(
    'section',
    { class: ['verdict', `verdict-${verdict}`], 'data-verdict': verdict, role: 'status', 'aria-live': 'polite' },
    h('strong', { class: 'verdict-word' }, headline[verdict] ?? verdict),
    h('span', { class: 'verdict-detail' }, ' ', detail),
    estimate.coarse
      ? h('span', { class: 'verdict-coarse' }, ' Coarse: this architecture has no reliable dimensions, so the figure is a rough one.')
      : null,
    estimate.assumes ? h('span', { class: 'verdict-assumes' }, ` Assumes ${estimate.assumes}.`) : null,
  );
}
