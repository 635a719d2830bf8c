// Starts the analysis worker while page.js is still loading, where the first verdict needs it: a permalink's config
// (in the hash). A first visit's verdict comes with the page (build.mjs), and page.js starts the worker after it, so
// that the module's compilation does not take the CPU from it. A deferred script in the head: it does not hold up the
// parser, and runs before page.js (a module, deferred too, later in the document). The module's download and
// compilation start here too, beside worker.js's download instead of after it, and the compiled module is posted to
// the worker (src/engine/engine-worker.js); where that fails the worker fetches the module itself.
(() => {
  if (location.hash.length <= 1) return;
  const worker = new Worker('worker.js#module-posted');
  globalThis.oomlintWorker = worker;
  const post = (module) => {
    try {
      worker.postMessage({ op: 'module', module });
    } catch {
      worker.postMessage({ op: 'module', module: null }); // a browser that cannot post a module
    }
  };
  WebAssembly.compileStreaming(fetch('oomlint.wasm')).then(post, () => post(null));
})();
