// The page's state in the URL fragment, deflated: a link carries the config (and log) itself and
// nothing is stored anywhere. Browsers never send the fragment to the server.
const PREFIX = '#s=';
// A crafted link could inflate to gigabytes: stop reading well before that.
const MAX_STATE_BYTES = 16 * 1024 * 1024;

async function pipe(bytes, transform) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_STATE_BYTES) {
      await reader.cancel();
      throw new Error('the link holds more than 16 MiB');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** state: {config, log, gpu, vramGib, ramGib[, path, companions]} → "#s=…" */
export async function encodeState(state) {
  const bytes = new TextEncoder().encode(JSON.stringify({ v: 1, ...state }));
  return PREFIX + toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')));
}

/** The state in a fragment, or null when the fragment holds none (or a damaged one). */
export async function decodeState(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  try {
    const bytes = await pipe(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    const state = JSON.parse(new TextDecoder().decode(bytes));
    if (state?.v !== 1) return null;
    return {
      config: String(state.config ?? ''),
      log: String(state.log ?? ''),
      gpu: String(state.gpu ?? ''),
      vramGib: Number(state.vramGib) || 0,
      ramGib: Number(state.ramGib) || 0,
      path: String(state.path ?? ''),
      // The job's other files: {path, text} each, anything else left out.
      companions: (Array.isArray(state.companions) ? state.companions : [])
        .filter((c) => typeof c?.path === 'string' && typeof c?.text === 'string')
        .map(({ path, text }) => ({ path, text })),
    };
  } catch {
    return null;
  }
}
