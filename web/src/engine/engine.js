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
    /** The kind the core reads each text as ('comfyui-workflow', 'webui-args', 'sd-scripts', …), in order. */
    kinds(texts) {
      return texts.map((text) => core.inputKind(text));
    },
  };
}

// A FLUX LoRA job with buckets and samples: the YAML reader, the schema, the estimate, the plan and the report.
const WARM_UP_JOB = `job: extension
config:
  name: warm-up
  process:
    - type: sd_trainer
      network: {type: lora, linear: 16, linear_alpha: 16}
      datasets: [{folder_path: /data, caption_ext: txt, cache_latents_to_disk: true, resolution: [512, 768, 1024]}]
      train: {batch_size: 1, steps: 2000, gradient_checkpointing: true, optimizer: adamw8bit, lr: 1e-4, dtype: bf16}
      model: {name_or_path: black-forest-labs/FLUX.1-dev, is_flux: true, quantize: true}
      sample: {sampler: flowmatch, sample_every: 250, width: 1024, height: 1024, prompts: [a photo], sample_steps: 20}
`;

/**
 * Answers the client's messages ({id, op, args}) with {id, ok, result | error}, one at a time.
 * `compiled`: as loadEngine's; the message that brings it ({op: 'module'}) is not a request.
 */
export function serve(scope, wasmUrl, compiled = null) {
  const engine = loadEngine(wasmUrl, compiled);
  let analysisAsked = false;
  // The browser compiles each of the module's functions on its first call, and a first analysis calls over a
  // thousand: in Chromium on two cores that took 190 ms of the first verdict's 230 in the worker, against 60 ms
  // with every function compiled beforehand. Once the module is instantiated and the requests already waiting for
  // it are answered (a task after them), the worker runs one small training job, unless an analysis was asked for
  // by then, so that the page's first analysis (its first edit, where the page came with its example's report)
  // finds most of its code compiled.
  engine
    .then((loaded) => setTimeout(() => analysisAsked || loaded.analyze({ config: WARM_UP_JOB, path: 'warm-up.yaml' })))
    .catch(() => {}); // a module that failed to load is reported to the requests
  scope.addEventListener('message', async ({ data }) => {
    const { id, op, args } = data;
    if (op === 'module') return;
    analysisAsked ||= op === 'analyze';
    try {
      const loaded = await engine;
      if (!['analyze', 'catalog', 'pngWorkflow', 'kinds'].includes(op)) throw new Error(`unknown request ${op}`);
      scope.postMessage({ id, ok: true, result: loaded[op](args) });
    } catch (error) {
      scope.postMessage({ id, ok: false, error: String(error?.message ?? error) });
    }
  });
}
