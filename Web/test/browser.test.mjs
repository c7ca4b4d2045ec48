// A real browser: headless Chromium loads example/index.html from a server on 127.0.0.1, which imports the
// package, decodes a conversation, hides the system message from the customer and links the text; the page posts
// what it shows back to the test's server. Skipped where no Chromium is installed (`apt-get install chromium`; CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, extname, normalize } from 'node:path';

const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
const root = new URL('..', import.meta.url).pathname;
const types = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

test('a conversation in a browser: links, and what the customer sees', { skip: !chromium && 'no Chromium' }, async () => {
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  const server = createServer(async (request, response) => {
    if (request.method === 'POST' && request.url === '/report') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        response.writeHead(204).end();
        report(body);
      });
      return;
    }
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
    try {
      const body = await readFile(join(root, path.endsWith('/') ? path + 'index.html' : path));
      response.writeHead(200, { 'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = await mkdtemp(join(tmpdir(), 'deskkit-chromium-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`,
    `http://127.0.0.1:${server.address().port}/example/?report`], { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => browser.on('exit', resolve));
  try {
    // The page posts its conversation once it is rendered; a loaded machine gets a minute.
    const dom = await Promise.race([reported, new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the page did not report within 60 s')), 60000).unref())]);
    assert.match(dom, /data-ready="true"/, 'the page finished');
    const items = [...dom.matchAll(/<li class="bubble" data-kind="([a-z_]+)">/g)].map((m) => m[1]);
    assert.deepEqual(items, ['plain', 'url_preview', 'closure_inquiry'], 'the system message is hidden');
    const anchors = [...dom.matchAll(/<a href="([^"]+)" data-kind="([a-z]+)">([^<]+)<\/a>/g)].map((m) => m.slice(1));
    assert.deepEqual(anchors, [
      ['https://example.com/track/1138', 'url', 'example.com/track/1138'],
      ['https://help.example.com/lost', 'url', 'https://help.example.com/lost'],
      ['mailto:help@example.com', 'email', 'help@example.com'],
    ]);
  } finally {
    // Chromium and the processes it started (a group of their own), gone before their profile is removed.
    process.kill(-browser.pid, 'SIGKILL');
    await exited;
    server.close();
    server.closeAllConnections();
    await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
});
