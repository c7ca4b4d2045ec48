// One URL rule and one card, proved the same: every URL of Corpus/urls gets the same verdict from the `deskkit`
// command (Swift's `URLSafety`) and from `safeURL`, in Node and in headless Chromium, whose own URL parser reads
// every safe one as http(s) on the host the card shows; every card case of the corpora — the messages and `data`
// strings, and a card for each tenth URL of the corpus in every URL field — gets the same decisions from
// `deskkit card` and `linkCard`, and the same card from `CardHTML` and `renderPreview` in the browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from '../index.mjs';
import { root, envelopes, dataStrings, run } from './support/corpus.mjs';
import { chromium, openPage } from './support/chromium.mjs';

const dk = await load();
const urls = readFileSync(join(root, 'Corpus/urls/urls.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
const verdicts = run(['card', '--urls', '--threads', '1'], urls.map((u) => JSON.stringify(u)).join('\n') + '\n')
  .map((l) => JSON.parse(l));

/** Card cases as the command reads them (one JSON line each) and as a widget hands them to `renderPreview`. */
function cardCases() {
  const cases = envelopes().map((line) => [line, line]);
  for (const data of dataStrings()) cases.push([JSON.stringify(data), data]);
  urls.forEach((url, i) => {
    if (i % 10 !== 0) return;
    const body = [{ url, title: 'link', image: url }, { url: 'https://example.com/', site_name: url, image: url },
      { url, image: 'https://example.com/i.png', image_width: 2, image_height: 1 }][i % 3];
    const payload = { type: 'SENDBIRD_DESK_URL_PREVIEW', body };
    cases.push([JSON.stringify(payload), payload]);
  });
  return cases;
}
const cases = cardCases();
const native = run(['card', '--threads', '1'], cases.map(([line]) => line).join('\n') + '\n').map((l) => JSON.parse(l));

test('the URL corpus: safeURL gives every URL the command\'s verdict', () => {
  assert.ok(urls.length >= 10000, `${urls.length} URLs`);
  assert.equal(verdicts.length, urls.length);
  let safe = 0;
  urls.forEach((url, i) => {
    assert.equal(verdicts[i].url, url);
    if (verdicts[i].safe) safe++;
    assert.equal(dk.safeURL(url), verdicts[i].safe ? url : null, `${JSON.stringify(url).slice(0, 200)}: ${verdicts[i].problem}`);
  });
  assert.ok(safe > 1000 && urls.length - safe > 5000, `${safe} safe`);
  // What only JavaScript can hold: a lone surrogate (no Swift string does) is never safe.
  assert.equal(dk.safeURL('https://example.com/\uD800'), null);
  assert.equal(dk.safeURL(42), null);
});

test('linkCard makes the decisions deskkit card makes, on every card case', () => {
  assert.equal(native.length, cases.length);
  let cards = 0;
  cases.forEach(([, input], i) => {
    let web;
    try {
      web = dk.linkCard(input);
    } catch (e) {
      web = null;  // no message: the command answers it as a plain message, which has no card either
    }
    if (native[i].card) cards++;
    assert.deepEqual(web, native[i].card, JSON.stringify(input).slice(0, 300));
  });
  assert.ok(cards > 1000, `${cards} cards`);
});

test('in Chromium: the same verdicts, every safe URL read as shown, and CardHTML\'s card is renderPreview\'s', { skip: !chromium && 'no Chromium' }, async () => {
  const work = mkdtempSync(join(tmpdir(), 'deskkit-cards-'));
  try {
    const file = join(work, 'cases.json');
    writeFileSync(file, JSON.stringify({
      urls: urls.map((u, i) => [u, verdicts[i].safe]),
      cards: cases.map(([, input], i) => [input, native[i].html]),
    }));
    const { report } = await openPage('/test/pages/same-cards.html', { files: { '/cases.json': file }, seconds: 120 });
    const found = JSON.parse(report);
    assert.equal(found.error, undefined, 'the page failed');
    assert.equal(found.urls, urls.length);
    assert.deepEqual(found.disagreements, [], `${found.disagreed} verdicts differ`);
    assert.deepEqual(found.misread, [], 'a safe URL the browser reads otherwise');
    assert.ok(found.drawn > 1000, `${found.drawn} cards drawn`);
    assert.deepEqual(found.differentCards, [], `${found.different} cards differ`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('in Chromium: no host the rule calls safe is one the browser cannot parse', { skip: !chromium && 'no Chromium' }, async () => {
  // Every code point in a host label, beginning one, and in a right-to-left domain; 400,000 punycode labels.
  const { report } = await openPage('/test/pages/hosts.html', { seconds: 120 });
  const { tried, safe, misread } = JSON.parse(report);
  assert.ok(tried > 1_900_000 && safe > 300_000, `${safe} of ${tried} called safe`);
  assert.deepEqual(misread, [], 'safe URLs the browser cannot parse (a dead link on a card)');
});

test('Sendbird\'s own preview: linkCard draws the card deskkit card draws, in every shape a widget holds', () => {
  const og = [
    { 'og:url': 'https://e.com/a', 'og:title': 'Platform OG', 'og:image': { url: 'http://e.com/i.png', secure_url: 'https://e.com/i.png', width: 640, height: 320 } },
    { 'og:url': 'javascript:alert(1)', 'og:title': 'T', 'og:image': { url: 'data:x' } },
    { 'og:title': 'no URL' },
    { url: 'https://e.com/b', title: 'SDK OG', defaultImage: { url: 'https://e.com/j.png', width: '640' } },
    'text', [1], null,
  ];
  for (const tag of og) {
    const platform = { type: 'MESG', message_id: 1, message: 'see', og_tag: tag };
    const [expected] = run(['card', '--threads', '1'], JSON.stringify(platform) + '\n').map((l) => JSON.parse(l).card);
    assert.deepEqual(dk.linkCard(platform), expected, JSON.stringify(tag));
    assert.deepEqual(dk.linkCard(JSON.stringify(platform)), expected);
    const sdk = { messageId: 1, messageType: 'user', message: 'see', data: '', ogMetaData: tag };
    assert.deepEqual(dk.linkCard(sdk), expected, `ogMetaData ${JSON.stringify(tag)}`);
  }
  assert.equal(dk.linkCard({ type: 'MESG', message_id: 1, message: 'see', og_tag: og[0] }).title.text, 'Platform OG');
  assert.equal(dk.linkCard({ messageId: 1, messageType: 'user', message: 'see', ogMetaData: og[3] }).title.text, 'SDK OG');
});
