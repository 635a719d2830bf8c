// The WebAssembly core behind one small API. It runs inside a Web Worker (engine-worker.js), or on
// the page itself where a worker cannot be made. All analysis is the core's; this only routes.
import createOomlint from 'oomlint-wasm';

/**
 * Loads the module; `wasmUrl` is where oomlint.wasm is served. `compiled`: a promise of a
 * WebAssembly.Module compiled elsewhere (boot.js), or of null; without one the glue fetches it.
 */
export async function loadEngine(wasmUrl, compiled = null) {
  const module = await compiled;
  let failed;
  const instantiateFailed = new Promise((_, reject) => {
    failed = reject;
  });
  const options = { locateFile: () => wasmUrl };
  if (module) {
    // Emscripten's hook: instantiate the given module; {} says the instance comes asynchronously.
    options.instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), failed);
      return {};
    };
  }
  const core = await Promise.race([createOomlint(options), instantiateFailed]);
  return {
    /**
     * The Report for a config, a log, or a config with the log of its failed run.
     * gpu: a catalog name, or '' with vramGib > 0 for a custom size; both empty: the default card.
     * ramGib: the machine's system RAM (0: not given, the host-RAM verdict is unknown).
     * companions: the job's other files, [{path, text}] (an sd-scripts command line's dataset TOML): read
     * with the config as one job; the report is the config's.
     */
    analyze({ config = '', log = '', path = '', gpu = '', vramGib = 0, ramGib = 0, companions = [] }) {
      const started = performance.now();
      const json =
        config.trim() && companions.length
          ? core.analyzeJob(config, path, log.trim() ? log : '', JSON.stringify(companions), gpu, vramGib, ramGib)
          : config.trim() && log.trim()
            ? core.analyzeWithLog(config, path, log, gpu, vramGib, ramGib)
            : core.analyze(config.trim() ? config : log, config.trim() ? path : path || '<log>', gpu, vramGib, ramGib);
      return { report: JSON.parse(json), ms: performance.now() - started };
    },
    catalog() {
      return { version: core.version(), rules: JSON.parse(core.rules()), gpus: JSON.parse(core.gpus()) };
    },
    /** The ComfyUI workflow a PNG's text chunk carries: {json, keyword} or {error}. `bytes`: a Uint8Array. */
    pngWorkflow(bytes) {
      return JSON.parse(core.pngWorkflow(bytes));
    },
    /**
     * An analysis whose report is not wanted: the browser compiles each of the module's functions on its first call,
     * and a first analysis calls over a thousand (in Chromium on two cores 190 ms of a 230 ms first analysis, against
     * 60 ms with them compiled), so a page whose first verdict came with it asks for one of its text then, off the
     * path of any verdict, and its first edit finds the code compiled.
     */
    warm(input) {
      this.analyze(input);
      return null;
    },
    /** The kind the core reads each text as ('comfyui-workflow', 'webui-args', 'sd-scripts', …), in order. */
    kinds(texts) {
      return texts.map((text) => core.inputKind(text));
    },
  };
}

/**
 * Answers the client's messages ({id, op, args}) with {id, ok, result | error}, one at a time.
 * `compiled`: as loadEngine's; the message that brings it ({op: 'module'}) is not a request.
 */
export function serve(scope, wasmUrl, compiled = null) {
  const engine = loadEngine(wasmUrl, compiled);
  scope.addEventListener('message', async ({ data }) => {
    const { id, op, args } = data;
    if (op === 'module') return;
    try {
      const loaded = await engine;
      if (!['analyze', 'warm', 'catalog', 'pngWorkflow', 'kinds'].includes(op)) throw new Error(`unknown request ${op}`);
      scope.postMessage({ id, ok: true, result: loaded[op](args) });
    } catch (error) {
      scope.postMessage({ id, ok: false, error: String(error?.message ?? error) });
    }
  });
}
