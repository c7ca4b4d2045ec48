// A page of this package in headless Chromium: a server on 127.0.0.1 serves Web/ (and any routes of the
// caller's), Chromium opens the page, and the page posts what it found to /report. Every request the page makes is
// recorded, so a test can tell that nothing was fetched that should not have been.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';

/** Chromium's path, or undefined where none is installed (`apt-get install chromium`; CI installs it). */
export const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

const root = new URL('../..', import.meta.url).pathname;
const types = {
  '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.jsonl': 'application/json',
};

/**
 * Opens `path` (e.g. `/example/?report`) in headless Chromium and answers what the page posts to `/report` (its
 * text) and the paths it requested. `routes` maps a path to a handler `(request, response)` of the caller's;
 * `files` maps a path to a file outside Web/ to serve. Waits `seconds` at most.
 */
export async function openPage(path, { routes = {}, files = {}, seconds = 60 } = {}) {
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  const requested = [];
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    requested.push(url.pathname);
    if (request.method === 'POST' && url.pathname === '/report') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        response.writeHead(204).end();
        report(body);
      });
      return;
    }
    if (routes[url.pathname]) return routes[url.pathname](request, response);
    const file = files[url.pathname] ?? join(root, normalize(decodeURIComponent(url.pathname)));
    try {
      const body = await readFile(file.endsWith('/') ? file + 'index.html' : file);
      response.writeHead(200, { 'content-type': types[extname(file) || '.html'] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = await mkdtemp(join(tmpdir(), 'deskkit-chromium-'));
  // No name is resolved but the server's address: nothing a page names leaves the machine.
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`,
    '--window-size=800,2000', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', `http://127.0.0.1:${server.address().port}${path}`],
  { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => browser.on('exit', resolve));
  try {
    const text = await Promise.race([reported, new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`the page did not report within ${seconds} s`)), seconds * 1000).unref())]);
    return { report: text, requested };
  } finally {
    // Chromium and the processes it started (a group of their own), gone before their profile is removed.
    process.kill(-browser.pid, 'SIGKILL');
    await exited;
    server.close();
    server.closeAllConnections();
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** A PNG of `width` × `height` pixels of one colour, made here (no image file in the repository). */
export async function png(width, height) {
  const { deflateSync } = await import('node:zlib');
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);  // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([40, 110, 200], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
