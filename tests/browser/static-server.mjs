// A static file server on 127.0.0.1 for the browser tests: serves build/web the way a plain static
// host would (correct MIME types, no server logic) and counts what it served.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.yaml': 'text/yaml; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Starts a server for `root` on a free loopback port; resolves to {url, served, close()}. `extra`:
 * {'/path.html': text} served as if they were files under `root` (the benchmark's placeholder page).
 */
export function serveStatic(root, extra = {}) {
  const served = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    if (Object.hasOwn(extra, url.pathname)) {
      served.push(url.pathname);
      response.writeHead(200, { 'content-type': types[path.extname(url.pathname)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      response.end(extra[url.pathname]);
      return;
    }
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
    const target = file.endsWith(path.sep) ? path.join(file, 'index.html') : file;
    served.push(url.pathname);
    if (!target.startsWith(root) || !fs.existsSync(target) || !fs.statSync(target).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': types[path.extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(target).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, served, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
