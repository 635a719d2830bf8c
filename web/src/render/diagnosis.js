// A crash log's diagnosis: which OOM, in which phase and step, and whether the GPU itself is suspect; an
// OOM the log only suggests (a kill, a silent exit) as a suspicion with the lines it rests on.
import { h } from './dom.js';
import { gib, phaseLabel } from './format.js';

const kinds = {
  cuda_alloc: "PyTorch's CUDA allocator ran out",
  cuda_error: 'CUDA reported out of memory',
  cublas_alloc: 'cuBLAS could not allocate its workspace',
  hip_alloc: 'ROCm/HIP ran out',
  mps_alloc: 'Apple MPS ran out',
  comfy_alloc: "ComfyUI's model manager ran out",
  host_ram: 'system RAM ran out',
};

const tools = { a1111: 'AUTOMATIC1111', forge: 'Forge', comfyui: 'ComfyUI' };

function renderSuspicion(log) {
  return h(
    'section',
    { class: ['diagnosis', 'suspected'], 'data-oom': 'suspected', 'data-phase': log.phase ?? '' },
    h('h3', {}, `Probably out of memory in ${phaseLabel(log.phase)} (suspected: no out-of-memory message)`),
    h('dl', {}, [h('dt', {}, 'what'), h('dd', {}, kinds[log.kind] ?? log.kind)]),
    h('ul', { class: 'evidence' }, (log.evidence ?? []).map((e) => h('li', {}, `line ${e.line}: ${e.why}`, h('code', {}, e.text)))),
  );
}

export function renderDiagnosis(log) {
  if (log.suspected) return renderSuspicion(log);
  if (!log.oom) {
    return h('section', { class: 'diagnosis', 'data-oom': 'false' }, h('strong', {}, 'Log: '), 'no out-of-memory error found in it.');
  }
  const n = log.numbers ?? {};
  const facts = [
    ['what', kinds[log.kind] ?? log.kind],
    ['tool', log.tool ? tools[log.tool] ?? log.tool : null],
    ['phase', phaseLabel(log.phase)],
    ['step', log.step ?? (log.tool ? null : 'before training')],
    ['tried to allocate', n.tried_to_allocate !== undefined ? gib(n.tried_to_allocate) : null],
    ['free', n.free !== undefined ? gib(n.free) : null],
    ['GPU total', n.total_capacity !== undefined ? gib(n.total_capacity) : null],
    ['held by PyTorch', n.allocated_by_pytorch !== undefined ? gib(n.allocated_by_pytorch) : null],
  ].filter(([, v]) => v !== null && v !== undefined);
  return h(
    'section',
    { class: ['diagnosis', log.gpu_state_suspect && 'suspect'], 'data-oom': 'true', 'data-phase': log.phase ?? '' },
    h('h3', {}, `Out of memory in ${phaseLabel(log.phase)}`),
    h('dl', {}, facts.map(([k, v]) => [h('dt', {}, k), h('dd', {}, String(v))])),
    log.gpu_state_suspect
      ? h('p', { class: 'gpu-state' }, 'This looks like a worker or GPU-state problem, not a config problem: a conservative job failed at once. Check what else holds the card before changing settings.')
      : null,
  );
}
