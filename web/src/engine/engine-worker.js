// The page's analysis worker: typing never waits for the core.
import { serve } from './engine.js';

serve(self, new URL('oomlint.wasm', self.location.href).href);
