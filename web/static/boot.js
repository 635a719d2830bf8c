// Starts the analysis worker while page.js is still loading; page.js takes it over (src/page/main.js).
// A classic script in the head: it runs at once. The module's download and compilation start here
// too, beside worker.js's download instead of after it, and the compiled module is posted to the
// worker (src/engine/engine-worker.js); where that fails the worker fetches the module itself.
(() => {
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
