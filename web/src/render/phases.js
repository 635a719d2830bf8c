// The estimate as a picture: one bar per phase, stacked by component, against the GPU's memory line.
// Every segment is focusable and says what it is and how it was computed.
import { h } from './dom.js';
import { gib, phaseLabel } from './format.js';

// Components keep one colour across all phases ("transformer weights" is the same everywhere);
// hues a golden angle apart stay distinct for the dozen or so components an estimate has.
function colours(names) {
  const colour = new Map();
  for (const name of names) {
    if (!colour.has(name)) colour.set(name, `hsl(${Math.round((colour.size * 137.5) % 360)} 58% 52%)`);
  }
  return colour;
}

function swatch(tag, colour, attrs) {
  const el = h(tag, attrs);
  el.style.backgroundColor = colour;
  return el;
}

export function renderPhases(estimate) {
  const { phases, gpu, peak_phase: peakPhase } = estimate;
  const colour = colours(phases.flatMap((p) => p.components.map((c) => c.name)));
  const top = Math.max(gpu.vram_bytes, ...phases.map((p) => p.high_bytes)) * 1.04;
  const percent = (bytes) => `${((100 * bytes) / top).toFixed(3)}%`;
  const detail = h('p', { class: 'phase-detail', 'aria-live': 'polite' }, 'Point at or focus a segment to see how it was computed.');
  const show = (text) => () => {
    detail.textContent = text;
  };

  const rows = phases.map((phase) => {
    const over = phase.peak_bytes > gpu.vram_bytes;
    const track = h('div', { class: 'phase-track' });
    for (const component of phase.components) {
      const text = `${phaseLabel(phase.name)} · ${component.name}: ${gib(component.bytes)} = ${component.how}`;
      const segment = swatch('span', colour.get(component.name), {
        class: 'segment',
        tabindex: 0,
        role: 'img',
        'aria-label': text,
        title: text,
        onpointerenter: show(text),
        onfocus: show(text),
      });
      segment.style.width = percent(component.bytes);
      track.append(segment);
    }
    const reasons = (phase.range ?? []).map((r) => `${r.why} (−${gib(r.below_bytes)}/+${gib(r.above_bytes)})`).join('; ');
    const whisker = h('span', { class: 'whisker', title: `${gib(phase.low_bytes)}–${gib(phase.high_bytes)}: ${reasons}` });
    whisker.style.left = percent(phase.low_bytes);
    whisker.style.width = percent(phase.high_bytes - phase.low_bytes);
    const limit = h('span', { class: 'limit-line', 'aria-hidden': 'true' });
    limit.style.left = percent(gpu.vram_bytes);
    track.append(whisker, limit);
    return h(
      'div',
      { class: ['phase-row', phase.name === peakPhase && 'peak', over && 'over'], 'data-phase': phase.name },
      h('span', { class: 'phase-name' }, phaseLabel(phase.name), phase.name === peakPhase ? h('span', { class: 'peak-mark' }, ' peak') : null),
      track,
      h('span', { class: 'phase-bytes' }, gib(phase.peak_bytes)),
    );
  });

  const legend = h(
    'ul',
    { class: 'legend', 'aria-label': 'components' },
    [...colour].map(([name, c]) => h('li', {}, swatch('span', c, { class: 'swatch', 'aria-hidden': 'true' }), name)),
  );
  return h(
    'figure',
    { class: 'phases' },
    h('figcaption', {}, `Estimated peak VRAM per phase; the line is the ${gpu.name}'s ${gib(gpu.vram_bytes)}, the whisker the range.`),
    rows,
    legend,
    detail,
  );
}
