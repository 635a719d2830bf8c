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

// A phase's range: the VRAM estimate gives its ends, the host-RAM one a symmetric uncertainty.
const lowOf = (p) => p.low_bytes ?? Math.max(0, p.peak_bytes - p.uncertainty_bytes);
const highOf = (p) => p.high_bytes ?? p.peak_bytes + p.uncertainty_bytes;

/**
 * @param estimate  the VRAM estimate, or the host-RAM one (estimate.host)
 * @param limit  {bytes, caption}: the line the bars are read against; the card's memory by default,
 *               the machine's RAM for host RAM (bytes null when it was not given: no line)
 */
export function renderPhases(estimate, limit = null) {
  const { phases, peak_phase: peakPhase } = estimate;
  const { bytes: limitBytes, caption } = limit ?? {
    bytes: estimate.gpu.vram_bytes,
    caption: `Estimated peak VRAM per phase; the line is the ${estimate.gpu.name}'s ${gib(estimate.gpu.vram_bytes)}, the whisker the range.`,
  };
  const colour = colours(phases.flatMap((p) => p.components.map((c) => c.name)));
  const top = Math.max(limitBytes ?? 0, ...phases.map((p) => highOf(p))) * 1.04;
  const percent = (bytes) => `${((100 * bytes) / top).toFixed(3)}%`;
  const detail = h('p', { class: 'phase-detail', 'aria-live': 'polite' }, 'Point at or focus a segment to see how it was computed.');
  const show = (text) => () => {
    detail.textContent = text;
  };

  const rows = phases.map((phase) => {
    const over = limitBytes !== null && phase.peak_bytes > limitBytes;
    const track = h('div', { class: 'phase-track' });
    for (const component of phase.components) {
      const text = `${phaseLabel(phase.name)} · ${component.name}: ${gib(component.bytes)} = ${component.how}${component.file_backed ? ' (mapped from the checkpoint file)' : ''}`;
      const segment = swatch('span', colour.get(component.name), {
        class: ['segment', component.file_backed && 'mapped'],
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
    const [low, high] = [lowOf(phase), highOf(phase)];
    const whisker = h('span', { class: 'whisker', title: `${gib(low)}–${gib(high)}${reasons ? `: ${reasons}` : ''}` });
    whisker.style.left = percent(low);
    whisker.style.width = percent(high - low);
    track.append(whisker);
    if (limitBytes !== null) {
      const line = h('span', { class: 'limit-line', 'aria-hidden': 'true' });
      line.style.left = percent(limitBytes);
      track.append(line);
    }
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
    h('figcaption', {}, caption),
    rows,
    legend,
    detail,
  );
}
