// The GPU picker: the core's catalog grouped by vendor, or a custom memory size in GiB. A catalog card's memory may
// be given too (an APU's carve-out, a modded or sliced card): the card's kind stays the catalog's.
import { h } from '../render/dom.js';

const CUSTOM = '__custom__';
const gib = (bytes) => (bytes / 1024 ** 3).toFixed(1);

/** Fills `select` (and shows `sizeInput` for a custom size or a card's own); onChange({gpu, vramGib}). */
export function setUpGpuPicker(select, sizeInput, gpus, onChange) {
  // No card chosen: the core assumes its default, or the card a pasted log reports, and (as the CLI
  // without --gpu) raises no estimate finding against a card the user did not name.
  const fallback = gpus.find((g) => g.default)?.name ?? 'the default card';
  select.append(h('option', { value: '' }, `Default: ${fallback}, or the log's card`));
  const byVendor = new Map();
  for (const g of gpus) byVendor.set(g.vendor, [...(byVendor.get(g.vendor) ?? []), g]);
  for (const [vendor, list] of byVendor) {
    select.append(h('optgroup', { label: vendor }, list.map((g) => h('option', { value: g.name }, `${g.name} — ${gib(g.vram_bytes)} GiB`))));
  }
  select.append(h('option', { value: CUSTOM }, 'Custom size…'));
  const current = () => ({ gpu: select.value === CUSTOM ? '' : select.value, vramGib: (!sizeInput.hidden && Number(sizeInput.value)) || 0 });
  // Unnamed card: the size is required. A catalog card: its own size is the placeholder, another may be typed.
  const showSize = () => {
    const card = gpus.find((g) => g.name === select.value);
    sizeInput.hidden = select.value === '';
    sizeInput.placeholder = card ? `${gib(card.vram_bytes)} GiB` : 'GiB';
    sizeInput.setAttribute('aria-label', card ? `Memory of the ${card.name} in GiB (empty: the catalog's)` : 'Custom GPU memory in GiB');
  };
  const sync = () => {
    showSize();
    onChange(current());
  };
  select.addEventListener('change', () => {
    sizeInput.value = '';  // a size typed for one card is not another's
    sync();
  });
  sizeInput.addEventListener('input', sync);
  return {
    current,
    set({ gpu, vramGib }) {
      const named = gpus.some((g) => g.name === gpu);
      select.value = named ? gpu : vramGib > 0 ? CUSTOM : '';
      sizeInput.value = vramGib > 0 ? String(vramGib) : '';
      showSize();
    },
  };
}
