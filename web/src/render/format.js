// Numbers as people read them in the report.

const GIB = 1024 ** 3;

/** 12.34 GiB; small sizes in MiB so that a saving of 40 MiB does not read as "0.04 GiB". */
export function gib(bytes) {
  if (bytes === undefined || bytes === null) return '?';
  const abs = Math.abs(bytes);
  if (abs < GIB / 4) return `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
  return `${(bytes / GIB).toFixed(abs < 10 * GIB ? 2 : 1)} GiB`;
}

export const phaseLabels = {
  load: 'model load',
  quantize: 'quantization',
  te_cache: 'text-encoder caching',
  latent_cache: 'latent caching',
  baseline_sample: 'first sample',
  train_step: 'training step',
  sample: 'periodic sampling',
  vae_decode: 'VAE decode',
  text_encode: 'text encoding',
  controlnet_preprocess: 'ControlNet preprocessing',
  denoise: 'denoising',
  hires_denoise: 'hires pass',
  vae_encode: 'VAE encode (hires)',
  upscale: 'model upscale',
  save: 'saving',
  inference: 'inference',
};

export const phaseLabel = (name) => phaseLabels[name] ?? name ?? 'unknown phase';

/** A plan value (JSON) as it would appear in the config. */
export function configValue(value) {
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** "line 12, column 5" for a 1-based position. */
export const where = (range) => (range ? `${range.start.line}:${range.start.column}` : '');
