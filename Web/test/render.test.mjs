// renderText, renderPreview and renderMessage in a real browser: headless Chromium renders a hostile corpus of the
// page's own (test/pages/hostile.html: every kind of Desk message among it, for both audiences) and cards whose images
// arrive late (test/pages/layout.html), each page reporting what it found to the test's server on 127.0.0.1. Skipped where no Chromium is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, openPage, png } from './support/chromium.mjs';

const skip = !chromium && 'no Chromium';

test('a hostile corpus renders with nothing executed and no URL but http(s) (and e-mail links) in the DOM', { skip }, async () => {
  const { report, requested } = await openPage('/test/pages/hostile.html');
  const found = JSON.parse(report);
  assert.deepEqual(found.ran, [], 'code from the corpus ran');
  assert.deepEqual(requested.filter((p) => p.startsWith('/canary')), [], 'the canary was fetched');
  assert.deepEqual(found.violations, []);
  assert.ok(found.counts.cards > 40 && found.counts.nulls > 20 && found.counts.messages > 150, JSON.stringify(found.counts));
  assert.ok(found.hrefs > 60 && found.images > 10, `${found.hrefs} links, ${found.images} images`);
  assert.ok(found.longestTitle > 0 && found.longestTitle <= 60, `a title of ${found.longestTitle} graphemes`);
  assert.ok(found.longestDescription > 0 && found.longestDescription <= 120, `${found.longestDescription}`);
  assert.ok(found.families.length > 0 && found.families.every(Boolean), 'a family emoji was cut');
  assert.deepEqual(found.api, {
    base64: 'T', decoded: 'A', system: null, noMessage: 'DeskKitError', proxied: true, dropped: null,
    mailto: 'mailto:help@example.com', noMailto: null, sdkOG: '640', platformOG: 'Platform OG',
    hostileOG: ['DIV', null, true], badOptions: ['TypeError', 'TypeError', 'TypeError', 'TypeError'],
  });
});

test('a card keeps its height when its image loads', { skip }, async () => {
  const images = { '/slow/wide.png': await png(1200, 630), '/slow/square.png': await png(300, 300) };
  const slow = (request, response) => setTimeout(() => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(images[new URL(request.url, 'http://x').pathname]);
  }, 700);
  const { report } = await openPage('/test/pages/layout.html', { routes: { '/slow/wide.png': slow, '/slow/square.png': slow } });
  const { before, after, loaded, attributes } = JSON.parse(report);
  assert.deepEqual(loaded, [true, true]);
  assert.deepEqual(attributes, [['1200', '630'], [null, null]]);
  assert.ok(before[0] > 150, `the sized card is ${before[0]} px high before its image`);
  assert.deepEqual(after, before, 'a card moved when its image arrived');
});
