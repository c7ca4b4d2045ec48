// A real browser: headless Chromium loads example/index.html from a server on 127.0.0.1, which imports the
// package, decodes a conversation of @sendbird/chat-shaped messages, hides the system message from the customer,
// links the text and draws the preview card; the page posts what it shows back to the test's server. Skipped
// where no Chromium is installed (`apt-get install chromium`; CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, openPage } from './support/chromium.mjs';

test('a conversation in a browser: links, a card, and what the customer sees', { skip: !chromium && 'no Chromium' }, async () => {
  const { report: dom } = await openPage('/example/?report');
  assert.match(dom, /data-ready="true"/, 'the page finished');
  const items = [...dom.matchAll(/<li class="bubble" data-kind="([a-z_]+)">/g)].map((m) => m[1]);
  assert.deepEqual(items, ['plain', 'url_preview', 'closure_inquiry'], 'the system message is hidden');
  const anchors = [...dom.matchAll(/<a href="([^"]+)" rel="noopener noreferrer nofollow" target="_blank">([^<]+)<\/a>/g)]
    .map((m) => m.slice(1));
  assert.deepEqual(anchors, [
    ['https://example.com/track/1138', 'example.com/track/1138'],
    ['https://help.example.com/lost', 'https://help.example.com/lost'],
    ['mailto:help@example.com', 'help@example.com'],
  ]);
  assert.match(dom, /<a class="deskkit-card" href="https:\/\/help.example.com\/lost" rel="noopener noreferrer nofollow" target="_blank">/);
  assert.match(dom, /<img src="https:\/\/help.example.com\/lost.png" alt="" referrerpolicy="no-referrer" loading="lazy" decoding="async" width="1200" height="630">/);
  assert.match(dom, /<div class="deskkit-card-title" dir="ltr">Lost parcels<\/div>/);
  assert.match(dom, /<div class="deskkit-card-host" dir="ltr">help.example.com<\/div>/);
});
