// The GPU picker: the core's catalog grouped by vendor, or a custom memory size in GiB.
import { h } from '../render/dom.js';

const CUSTOM = '__custom__';

/** Fills `select` (and shows `customInput` for a custom size); onChange({gpu, vramGib}). */
export function setUpGpuPicker(select, customInput, gpus, onChange) {
  // No card chosen: the core assumes its default, or the card a pasted log reports, and (as the CLI
  // without --gpu) raises no estimate finding against a card the user did not name.
  const fallback = gpus.find((g) => g.default)?.name ?? 'the default card';
  select.append(h('option', { value: '' }, `Default: ${fallback}, or the log's card`));
  const byVendor = new Map();
  for (const g of gpus) byVendor.set(g.vendor, [...(byVendor.get(g.vendor) ?? []), g]);
  for (const [vendor, list] of byVendor) {
    select.append(h('optgroup', { label: vendor }, list.map((g) => h('option', { value: g.name }, `${g.name} — ${(g.vram_bytes / 1024 ** 3).toFixed(1)} GiB`))));
  }
  select.append(h('option', { value: CUSTOM }, 'Custom size…'));
  const current = () =>
    select.value === CUSTOM ? { gpu: '', vramGib: Number(customInput.value) || 0 } : { gpu: select.value, vramGib: 0 };
  const sync = () => {
    customInput.hidden = select.value !== CUSTOM;
    onChange(current());
  };
  select.addEventListener('change', sync);
  customInput.addEventListener('input', sync);
  return {
    current,
    set({ gpu, vramGib }) {
      if (vramGib > 0) {
        select.value = CUSTOM;
        customInput.value = String(vramGib);
      } else {
        select.value = gpus.some((g) => g.name === gpu) ? gpu : '';
      }
      customInput.hidden = select.value !== CUSTOM;
    },
  };
}
