// The rollback plan in the guide's order: each step with its saving, the peak after it, whether it
// is needed, and a button that writes it into the config (the core supplies the exact edit).
import { h } from './dom.js';
import { configValue, gib } from './format.js';

function key(path) {
  return path.replace(/^config\.process\[\d+\]\./, '').replace(/^generation\./, '');
}

function step(s, onApply) {
  const change = h('span', { class: 'change' }, h('code', {}, key(s.path)), ': ', h('code', {}, configValue(s.from)), ' → ', h('code', {}, configValue(s.to)));
  const effect = s.ramp_up
    ? `adds ${gib(-s.saves_bytes)}, peak ${gib(s.peak_bytes_after)}`
    : `${s.top_only ? `the range's top to ${gib(s.high_bytes_after)}` : `saves ${gib(s.saves_bytes)}`}, peak after ${gib(s.peak_bytes_after)}${s.fits_after ? ' (fits)' : ''}`;
  return h(
    'li',
    { class: ['plan-step', s.needed && 'needed', s.ramp_up && 'ramp-up'], 'data-path': s.path },
    h('div', { class: 'plan-line' }, change, s.needed ? h('span', { class: 'badge' }, 'needed') : null),
    h('div', { class: 'plan-effect' }, effect),
    h('div', { class: 'plan-why' }, s.why),
    onApply && s.edit
      ? h('button', { class: 'apply', type: 'button', onclick: () => onApply([s]), 'aria-label': `Apply: ${key(s.path)} → ${configValue(s.to)}` }, 'Apply')
      : null,
  );
}

// A training job's plan follows the OOM guide's rollback order; a generation's, the cheapest fix first.
const headings = {
  'ai-toolkit-job': ['Rollback plan', 'In this order; each peak includes the steps above it. Learning rate and optimizer are not memory levers.'],
  'sd-scripts': ['Rollback plan', 'In the guide\'s order with sd-scripts\' own arguments; each peak includes the steps above it.'],
  'musubi-tuner': ['Rollback plan', 'In the guide\'s order with musubi-tuner\'s own arguments; each peak includes the steps above it.'],
  'webui-args': ['Fixes, cheapest first', 'In this order; each peak includes the steps above it. Speed costs are in each step.'],
  'comfyui-workflow': ['Fixes, cheapest first', 'In this order; each peak includes the steps above it. Launch flags are advice: a workflow has no place for them.'],
  host: ['Host-RAM plan', 'In this order; each peak is system RAM and includes the steps above it. None runs the card out of memory.'],
};

/** @param onApply(steps)  writes steps into the config; omit for a read-only plan */
export function renderPlan(plan, { onApply, kind = 'ai-toolkit-job' } = {}) {
  const [title, note] = headings[kind] ?? headings['ai-toolkit-job'];
  const rollback = plan.filter((s) => !s.ramp_up);
  const rampUp = plan.filter((s) => s.ramp_up);
  const needed = rollback.filter((s) => s.needed && s.edit);
  const parts = [];
  if (rollback.length) {
    parts.push(
      h('h3', {}, title),
      h('p', { class: 'plan-note' }, note),
      h('ol', { class: 'plan' }, rollback.map((s) => step(s, onApply))),
    );
    if (onApply && needed.length) {
      parts.push(h('button', { class: 'apply-needed', type: 'button', onclick: () => onApply(needed) }, `Apply all needed (${needed.length})`));
    }
  }
  if (rampUp.length) {
    parts.push(
      h('h3', {}, 'Room to add back'),
      h('p', { class: 'plan-note' }, 'Once a run is stable, add one heavier setting at a time.'),
      h('ol', { class: 'plan ramp' }, rampUp.map((s) => step(s, onApply))),
    );
  }
  return h('section', { class: 'plan-section' }, parts.length ? parts : h('p', {}, 'Nothing to change.'));
}
