#!/usr/bin/env node
// Screenshots of the example widget (Web/example/index.html) for docs/: what the customer and the agent see, the
// customer's view in Arabic (right to left), and the customer's view in the dark scheme — drawn by renderMessage in
// headless Chromium (apt-get install chromium), from a server on 127.0.0.1. Build Web/deskkit.wasm first
// (Scripts/build-wasm.sh).
//
//   node Scripts/screenshot-widget.mjs [OUT_DIR]   # default docs/
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { openBrowser, chromium } from '../Web/test/support/cdp.mjs';

if (!chromium) throw new Error('no Chromium: apt-get install chromium');
const root = new URL('..', import.meta.url).pathname;
const out = process.argv[2] ?? join(root, 'docs');
const types = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const server = createServer(async (request, response) => {
  const path = new URL(request.url, 'http://x').pathname;
  try {
    const body = await readFile(join(root, 'Web', path.endsWith('/') ? `${path}index.html` : path));
    response.writeHead(200, { 'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const shots = [
  ['widget-customer.png', 'audience=customer&lang=en', false],
  ['widget-agent.png', 'audience=agent&lang=en', false],
  ['widget-customer-ar.png', 'audience=customer&lang=ar', false],
  ['widget-customer-dark.png', 'audience=customer&lang=en', true],
];
for (const [file, query, dark] of shots) {
  const browser = await openBrowser({ width: 640, height: 1200, dark });
  try {
    await browser.open(`http://127.0.0.1:${server.address().port}/example/?${query}`);
    await browser.until('the widget', 'document.body.dataset.ready');
    await writeFile(join(out, file), await browser.screenshot());
    console.log(`${join(out, file)}: ${query}${dark ? ', dark' : ''}`);
  } finally {
    await browser.close();
  }
}
server.close();
