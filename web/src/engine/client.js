// Talks to the engine in a Web Worker. A request that runs away (it should not: the core has input limits) costs a restarted worker,
// never a frozen tab.
const TIMEOUT_MS = 20000;

export class WorkerClient {
  /** @param makeWorker  () => Worker */
  constructor(makeWorker) {
    this.makeWorker = makeWorker;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
  }

  start() {
    this.worker = this.makeWorker();
    this.worker.addEventListener('message', ({ data }) => {
      const request = this.pending.get(data.id);
      if (!request) return;
      this.pending.delete(data.id);
      clearTimeout(request.timer);
      if (data.ok) request.resolve(data.result);
      else request.reject(new Error(data.error));
    });
    this.worker.addEventListener('error', (event) => this.restart(`the analysis worker failed: ${event.message ?? 'unknown error'}`));
  }

  restart(reason) {
    this.worker?.terminate();
    this.worker = null;
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new Error(reason));
    }
    this.pending.clear();
  }

  call(op, args) {
    if (!this.worker) this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.restart(`the analysis took longer than ${TIMEOUT_MS / 1000} s and was stopped`), TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** Resolves with {report, ms}. */
  analyze(input) {
    return this.call('analyze', input);
  }

  catalog() {
    return this.call('catalog');
  }

  /** An analysis whose report is dropped: the module's code compiled before the first edit needs it. */
  warm(input) {
    return this.call('warm', input);
  }

  /** Resolves with {json, keyword} or {error}: the workflow in a PNG's bytes (a Uint8Array). */
  pngWorkflow(bytes) {
    return this.call('pngWorkflow', bytes);
  }

  /** Resolves with the kind the core reads each text as, in order. */
  kinds(texts) {
    return this.call('kinds', texts);
  }
}

/** Wraps an async function so that only the newest call's result is delivered; older ones give null. */
export function latestOnly(fn) {
  let latest = 0;
  return async (...args) => {
    const ticket = ++latest;
    const result = await fn(...args);
    return ticket === latest ? result : null;
  };
}
