// Starts the analysis worker (and so the module's download and compilation) while page.js is still
// loading; page.js takes it over (src/page/main.js). A classic script in the head: it runs at once.
globalThis.oomlintWorker = new Worker('worker.js');
