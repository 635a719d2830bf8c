// The client API on the page's own thread, for hosts where no worker can be started (a widget
// script served from another origin).
import { loadEngine } from './engine.js';

export class InlineClient {
  constructor(wasmUrl) {
    this.engine = loadEngine(wasmUrl);
  }

  async analyze(input) {
    return (await this.engine).analyze(input);
  }

  async catalog() {
    return (await this.engine).catalog();
  }

  async pngWorkflow(bytes) {
    return (await this.engine).pngWorkflow(bytes);
  }

  async kinds(texts) {
    return (await this.engine).kinds(texts);
  }
}
