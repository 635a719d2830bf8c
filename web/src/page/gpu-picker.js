// The GPU picker: the core's catalog grouped by vendor, or a custom memory size in GiB.
import { h } from '../render/dom.js';

const CUSTOM = '__custom__';

/** Fills `select` (and shows `customInput` for a custom size); onChange({gpu, vramGib}). */
export function setUpGpuPicker(select, customInput, gpus, onChange) {
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
      } else if (gpus.some((g) => g.name === gpu)) {
        select.value = gpu;
      } else {
        select.value = gpus.find((g) => g.default)?.name ?? gpus[0].name;
      }
      customInput.hidden = select.value !== CUSTOM;
    },
  };
}
