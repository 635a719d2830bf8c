// The page's analysis worker: typing never waits for the core. Started by boot.js as
// worker.js#module-posted, it instantiates the module boot.js compiled and posts to it (or, given
// null, fetches the module itself); started otherwise (a restart) it fetches the module.
import { serve } from './engine.js';

const wasmUrl = new URL('oomlint.wasm', self.location.href).href;
const posted =
  self.location.hash === '#module-posted'
    ? new Promise((resolve) => {
        const take = ({ data }) => {
          if (data?.op !== 'module') return;
          self.removeEventListener('message', take);
          resolve(data.module);
        };
        self.addEventListener('message', take);
      })
    : null;
serve(self, wasmUrl, posted);
