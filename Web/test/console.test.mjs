// The operator's console of `deskkit serve` (GET /console), driven in headless Chromium as an operator uses it,
// against a running server on loopback (DESKKIT, default .build/debug/deskkit) with the pages and the Platform
// API it talks to (support/console-scene.mjs). Skipped where no Chromium is installed (CI installs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, openBrowser } from './support/cdp.mjs';
import { startScene, openConsole, enterKey, HOSTILE, CLIENT_KEY } from './support/console-scene.mjs';

const skip = !chromium && 'no Chromium';

/** In the page: whether markup a page or an error carried was parsed, or anything of it ran. */
const NOTHING_RAN = `!window.__pwned && !document.querySelector('img[src="x"], [onerror], script:not([type="module"])')`;

test('the console: the key, the queue live, a failed job retried from the page', { skip, timeout: 180_000 }, async () => {
  const scene = await startScene();
  const browser = await openBrowser();
  try {
    await openConsole(browser, scene.origin);
    // Without a key, nothing is shown but the key's form.
    assert.equal(await browser.evaluate(`document.getElementById('key-page').hidden`), false);
    assert.equal(await browser.evaluate(`document.getElementById('queue-page').hidden`), true);
    assert.equal(await browser.evaluate(`document.getElementById('counts').children.length`), 0);

    // A wrong key is refused and not kept; so is a chat backend's client key (a 403: it opens nothing of the console).
    await enterKey(browser, 'wrong-key-0123456789abcdef');
    await browser.until('the refusal of a wrong key', `document.getElementById('status').className === 'bad'`);
    assert.equal(await browser.evaluate(`sessionStorage.getItem('deskkit-console-key')`), null);
    await enterKey(browser, CLIENT_KEY);
    await browser.until('the refusal of a client key', `document.getElementById('status').textContent.includes('needs an operator key')`);
    assert.equal(await browser.evaluate(`sessionStorage.getItem('deskkit-console-key')`), null);

    await enterKey(browser);
    await browser.until('the queue page', `!document.getElementById('queue-page').hidden && document.body.dataset.renders`);

    // Webhooks sent now appear in the counts (the page refreshes itself); the Platform API refuses message 502.
    scene.refusing.add(502);
    assert.equal((await scene.webhook(501, `Where is it? ${scene.pages}/guide`)).status, 'queued');
    assert.equal((await scene.webhook(502, `And this one ${scene.pages}/guide`)).status, 'queued');
    const failedRow = `document.querySelector('#jobs tr[data-message-id="502"][data-state="failed"]')`;
    await browser.until('job 502 failed in the list', failedRow);
    await browser.until('the counts: one done, one failed',
      `document.querySelector('.count.done b').textContent === '1' && document.querySelector('.count.failed b').textContent === '1'`);
    const shown = await browser.evaluate(`${failedRow}.textContent`);
    assert.match(shown, /Channel is frozen/, 'the last error is shown');
    assert.ok(shown.includes('<img src=x onerror=') && shown.includes('<script>window.__pwned=2</script>'),
      `its markup is shown as text: ${shown}`);
    assert.ok(await browser.evaluate(NOTHING_RAN), 'the error text ran nothing');
    assert.ok(await browser.evaluate(`document.querySelector('#chart rect.admitted') !== null`), 'the chart has the admissions');

    // The Platform API takes updates again: the job is retried from the page and ends done.
    scene.refusing.delete(502);
    await browser.evaluate(`document.querySelector('#jobs button[data-retry="502"]').click()`);
    await browser.until('the counts: two done, none failed',
      `document.querySelector('.count.done b').textContent === '2' && document.querySelector('.count.failed b').textContent === '0'`);
    assert.deepEqual(scene.updates.map((u) => u.id).sort(), [501, 502]);

    // The messages' card is cached: the inspector, asked from the message's job (its link whole, where the list shows
    // it masked), says so, and "forget" takes it back.
    const inspect501 = `document.querySelector('#jobs tr[data-message-id="501"] .url button')`;
    await browser.evaluate(`(() => { const s = document.getElementById('state'); s.value = 'done'; s.dispatchEvent(new Event('change')); })()`);
    await browser.until('job 501 listed with its link', inspect501);
    await browser.evaluate(`${inspect501}.click()`);
    await browser.until('the inspection, with the cached card', `document.getElementById('cache').textContent.includes('holds a card')`);
    await browser.evaluate(`document.getElementById('forget').click()`);
    await browser.until('the card forgotten', `document.getElementById('status').textContent.startsWith('Forgotten: 1 cached here')
      && document.getElementById('cache').textContent.includes('holds nothing')`);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await scene.stop();
  }
});

test('the inspector explains a good page, a login wall, and shows hostile texts as text', { skip, timeout: 180_000 }, async () => {
  const scene = await startScene();
  const browser = await openBrowser({ width: 360, height: 800, dark: true });
  try {
    await openConsole(browser, scene.origin);
    await enterKey(browser);
    await browser.until('the queue page', `!document.getElementById('queue-page').hidden`);

    // The messages whose links are inspected: a typed URL reaches public addresses only, a message's link is fetched as
    // the queue fetched it (this server fetches private addresses: --allow-private).
    const messages = { '/guide': 601, '/account': 602, '/hostile': 603 };
    for (const [path, id] of Object.entries(messages)) await scene.webhook(id, `About ${scene.pages}${path}`);
    // A good page: its card as a widget draws it, its tags by source, the winner of each field marked.
    const inspect = async (path) => {
      const before = await browser.evaluate(`document.body.dataset.renders`);
      await browser.evaluate(`location.hash = '#inspect?message_id=${messages[path]}&link=0'`);
      await browser.until(`the inspection of ${path}`, `document.body.dataset.renders !== ${JSON.stringify(before)} && !document.getElementById('inspection').hidden`);
    };
    await inspect('/guide');
    assert.equal(await browser.evaluate(`document.getElementById('verdict').dataset.kind`), 'card');
    assert.equal(await browser.evaluate(`document.querySelector('#card-view .deskkit-card-title').textContent`), 'How to return an order');
    // Its image through the server's image proxy: the console loads nothing from another origin.
    assert.ok((await browser.evaluate(`document.querySelector('#card-view img').src`)).startsWith(`${scene.origin}/images/`));
    await browser.until('the card image loaded', `document.querySelector('#card-view img').complete && document.querySelector('#card-view img').naturalWidth === 1200`);
    const won = await browser.evaluate(`[...document.querySelectorAll('#tags tr.won')].map((tr) => [...tr.cells].map((td) => td.textContent).join('|'))`);
    assert.ok(won.includes('opengraph|og:title|How to return an order|title'), `won: ${won}`);
    assert.ok(won.some((r) => r.startsWith('opengraph|og:image|')), `won: ${won}`);
    const lost = await browser.evaluate(`[...document.querySelectorAll('#tags tr:not(.won)')].map((tr) => tr.cells[1].textContent)`);
    assert.ok(lost.includes('twitter:title'), 'a tag that lost is listed, unmarked');
    const hops = await browser.evaluate(`[...document.querySelectorAll('#hops tbody tr')].map((tr) => tr.cells[1].textContent + ' ' + tr.cells[4].textContent)`);
    // The page and its image; beside the page (a deep link), its site's made-up address.
    assert.deepEqual(hops.map((h) => h.split(' ').slice(0, 2).join(' ')).filter((h) => !h.startsWith('site_probe')), ['page 200', 'image 200']);
    assert.match(await browser.evaluate(`document.getElementById('hops').textContent`), /address 127\.0\.0\.1: allowed/);
    // The page is as wide as the phone: nothing runs off its side.
    assert.ok(await browser.evaluate(`document.documentElement.scrollWidth <= 360`), 'no horizontal scroll at 360 px');

    // A login wall: its kind, the sentence that decided, the signals read.
    await inspect('/account');
    assert.equal(await browser.evaluate(`document.getElementById('verdict').dataset.kind`), 'login_wall');
    assert.notEqual(await browser.evaluate(`document.getElementById('reasons').textContent`), '');
    assert.match(await browser.evaluate(`document.getElementById('signals').textContent`), /password fields1/);
    assert.equal(await browser.evaluate(`document.querySelector('#card-view .deskkit-card')`), null);

    // A page whose title and site name carry markup and handlers: shown as text, nothing run.
    await inspect('/hostile');
    assert.ok((await browser.evaluate(`document.getElementById('tags').textContent`)).includes(HOSTILE));
    assert.ok(await browser.evaluate(NOTHING_RAN), 'the page\'s texts ran nothing');

    // The same page typed: the inspector reaches public addresses only.
    const before = await browser.evaluate(`document.body.dataset.renders`);
    await browser.evaluate(`location.hash = '#inspect?url=' + encodeURIComponent(${JSON.stringify(scene.pages + '/guide')})`);
    await browser.until('the typed inspection', `document.body.dataset.renders !== ${JSON.stringify(before)}`);
    assert.equal(await browser.evaluate(`document.getElementById('verdict').dataset.kind`), 'blocked_address');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await scene.stop();
  }
});
