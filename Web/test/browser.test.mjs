// The example page in a real browser: headless Chromium loads example/index.html from a server on 127.0.0.1, which
// imports the package and draws a scripted conversation of @sendbird/chat-shaped messages with renderMessage —
// the system message and unknown data hidden from the customer, links and a card, the closure inquiry and the
// survey waiting — and answering both dispatches the events the page logs and re-renders them answered. Skipped
// where no Chromium is installed (`apt-get install chromium`; CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { chromium, openPage } from './support/chromium.mjs';
import { openBrowser } from './support/cdp.mjs';
import { root } from './support/corpus.mjs';

const skip = !chromium && 'no Chromium';

test('the example conversation: what the customer sees, links and a card', { skip }, async () => {
  const { report: dom } = await openPage('/example/?report');
  assert.match(dom, /data-ready="true"/, 'the page finished');
  const kinds = [...dom.matchAll(/<div class="deskkit-message" data-kind="([a-z_]+)"/g)].map((m) => m[1]);
  assert.deepEqual(kinds, ['plain', 'notification', 'bot_answers', 'url_preview', 'closure_inquiry', 'customer_satisfaction'],
    'the system message and the unknown data are hidden');
  const anchors = [...dom.matchAll(/<a href="([^"]+)" rel="noopener noreferrer nofollow" target="_blank">([^<]+)<\/a>/g)]
    .map((m) => m.slice(1));
  assert.deepEqual(anchors, [
    ['https://example.com/track/1138', 'example.com/track/1138'],
    ['https://help.example.com/track', 'Where is my parcel?'],
    ['https://help.example.com/lost', 'https://help.example.com/lost'],
    ['mailto:help@example.com', 'help@example.com'],
  ]);
  assert.match(dom, /<a class="deskkit-card" href="https:\/\/help.example.com\/lost" rel="noopener noreferrer nofollow" target="_blank">/);
  assert.match(dom, /<div class="deskkit-card-title" dir="ltr">Lost parcels<\/div>/);
});

test('the example widget: answering the inquiry and the survey logs the events and shows them answered', { skip }, async () => {
  const web = join(root, 'Web');
  const types = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    try {
      const body = await readFile(join(web, path.endsWith('/') ? `${path}index.html` : path));
      response.writeHead(200, { 'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await openBrowser();
  try {
    await browser.open(`http://127.0.0.1:${server.address().port}/example/?audience=customer&lang=en`);
    await browser.until('the page', 'document.body.dataset.ready');
    await browser.evaluate(`document.querySelector('.deskkit-answer').click()`);
    await browser.evaluate(`(() => { const s = document.querySelectorAll('.deskkit-stars input'); s[4].click();
      document.querySelector('.deskkit-comment textarea').value = 'Great'; document.querySelector('.deskkit-submit').click(); })()`);
    const log = await browser.until('two events', `document.getElementById('log').textContent.trim().split('\\n').length === 2 && document.getElementById('log').textContent`);
    assert.deepEqual(log.trim().split('\n').map((l) => JSON.parse(l)), [
      { kind: 'closure_inquiry', messageId: 7, ticketId: 4021, answer: 'yes' },
      { kind: 'customer_satisfaction', messageId: 8, ticketId: 4021, answer: { score: 5, comment: 'Great' } },
    ]);
    const answered = await browser.until('both answered', `document.querySelectorAll('.deskkit-rated').length === 1 &&
      [document.querySelector('[data-kind=closure_inquiry] .deskkit-state')?.textContent, document.querySelector('.deskkit-rated').getAttribute('aria-label')]`);
    assert.deepEqual(answered, ['✔ The customer agreed to close the ticket', '5 stars out of 5']);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});
