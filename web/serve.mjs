// Serves this folder over HTTP with the headers that make a page
// cross-origin isolated, which the engine's threads need (shared memory):
//
//   node serve.mjs [PORT]        # then open http://localhost:PORT/ (8080 by default)
//
// Only for trying the page and for the tests: it listens on localhost only.
// A real site sends the same two headers from its own server:
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.argv[2] ?? 8080);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/plain; charset=utf-8',
};

const server = http.createServer((request, response) => {
  const url = new URL(request.url, 'http://localhost');
  let file = path.join(root, decodeURIComponent(url.pathname));
  if (file !== root && !file.startsWith(root + path.sep)) file = root; // nothing outside this folder
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  const headers = {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  };
  fs.readFile(file, (error, body) => {
    if (error) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain' });
      response.end('not found\n');
      return;
    }
    const type = types[path.extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { ...headers, 'Content-Type': type });
    response.end(body);
  });
});
server.listen(port, '127.0.0.1', () => {
  console.log(`serving ${root} at http://localhost:${server.address().port}/`);
});
