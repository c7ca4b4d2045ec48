// The JavaScript API's contract: offsets in UTF-16 code units, options by name, errors as exceptions (never a
// trap), and memory that stays flat however many calls are made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load, DeskKitError } from '../index.mjs';

const dk = await load();

test('offsets are UTF-16 code units: text.slice(start, end) is the link', () => {
  const text = '😀 ünïcödé 🇯🇵 see пример.рф/путь and 𝒳 mail me@example.com';
  const links = dk.findLinks(text);
  assert.deepEqual(links.map((l) => l.kind), ['url', 'email']);
  for (const l of links) assert.equal(text.slice(l.start, l.end), l.text);
  assert.equal(links[0].href, 'https://пример.рф/путь');
  assert.equal(links[0].asciiHref, 'https://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C');
  assert.equal(links[1].href, 'mailto:me@example.com');
});

test('hrefs: each prefix, capitals lowercased in scheme and host only, IDN hosts in punycode, in one text', () => {
  // Links the module sends as offsets alone, between ones whose hrefs it writes out, so each reads its own.
  const text = 'HTTPS://Example.COM/A then example.org/B, bücher.de/ü, //cdn.example.net/x, ann@Example.com, ' +
    'www.example.com and ftp://files.example.com/y';
  const hrefs = dk.findLinks(text).map((l) => [l.href, l.asciiHref]);
  assert.deepEqual(hrefs, [
    ['https://example.com/A', 'https://example.com/A'],
    ['https://example.org/B', 'https://example.org/B'],
    ['https://bücher.de/ü', 'https://xn--bcher-kva.de/%C3%BC'],
    ['https://cdn.example.net/x', 'https://cdn.example.net/x'],
    ['mailto:ann@example.com', 'mailto:ann@example.com'],
    ['https://www.example.com', 'https://www.example.com'],
    ['ftp://files.example.com/y', 'ftp://files.example.com/y'],
  ]);
});

test('options by name, defaults when left out; a wrong name or type is a TypeError', () => {
  const text = 'example.com or http://10.0.0.1/x or 10.0.0.2/y or a@b.com';
  assert.deepEqual(dk.findLinks(text).map((l) => l.text), ['example.com', 'http://10.0.0.1/x', 'a@b.com']);
  assert.deepEqual(dk.findLinks(text, { requireScheme: true }).map((l) => l.text), ['http://10.0.0.1/x']);
  assert.deepEqual(dk.findLinks(text, { ipHosts: true, emails: false }).map((l) => l.text),
    ['example.com', 'http://10.0.0.1/x', '10.0.0.2/y']);
  assert.throws(() => dk.findLinks(text, { requireSchemes: true }), TypeError);
  assert.throws(() => dk.findLinks(text, { emails: 'no' }), TypeError);
  assert.throws(() => dk.findLinks(42), TypeError);
  assert.deepEqual(dk.findLinks(''), []);
});

test('a message that is no JSON object throws a DeskKitError with its problem; bad data is kept, not thrown', () => {
  for (const bad of ['not json', '[1,2]', '"a string"', '{"type": "MESG",']) {
    assert.throws(() => dk.decodeMessage(bad), (e) => e instanceof DeskKitError && e.problems.length === 1 && e.problems[0].path === '$');
    assert.throws(() => dk.visibility(bad, 'customer'), DeskKitError);
  }
  assert.throws(() => dk.decodeMessage(undefined), TypeError);
  assert.throws(() => dk.visibility({ type: 'MESG' }, 'everyone'), TypeError);
  const kept = dk.decodeMessage({ type: 'MESG', message: 'hi', data: '{"type":"SENDBIRD_DESK_URL_PREVIEW","body":' });
  assert.equal(kept.kind, 'malformed');
  assert.equal(kept.error.path, '$.data');
  assert.deepEqual(dk.validate({ type: 'MESG', message: 'hi' }), []);
  assert.equal(dk.validate('{"type":"MESG","message":7}')[0].path, '$.message');
});

test('hostile input answers: deep nesting, huge numbers, invalid base64, lone surrogates, long text', () => {
  assert.equal(dk.decodeData('['.repeat(100000)).kind, 'malformed');
  assert.equal(dk.decodeData('{"type":"SENDBIRD_DESK_CUSTOMER_SATISFACTION","body":{"customerSatisfactionScore":1e999}}').kind, 'malformed');
  assert.equal(dk.decodeData('eyJ0eXBl!!!').kind, 'plain');
  const lone = 'see example.com/\uD800x and \uDC00 example.org';
  for (const l of dk.findLinks(lone)) assert.equal(lone.slice(l.start, l.end), l.text);
  const long = 'word '.repeat(200000) + 'example.com';
  assert.equal(dk.findLinks(long).at(-1).text, 'example.com');
});

test('a million calls keep the module memory flat', () => {
  const memory = () => dk.memoryBytes;
  const message = { type: 'MESG', message: 'see example.com', custom_type: 'SENDBIRD_DESK_RICH_MESSAGE',
    data: '{"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE","body":{"state":"WAITING","ticketId":4021}}' };
  const warm = () => {
    for (let i = 0; i < 1000; i++) {
      dk.findLinks('order 1138: example.com/track/1138 or help@example.com');
      dk.decodeMessage(message);
      dk.visibility(message, 'customer');
      dk.validate(message);
      dk.decodeData(message.data);
      try { dk.decodeMessage('not json'); } catch {}
    }
  };
  warm();
  const before = memory();
  for (let round = 0; round < 167; round++) warm();
  assert.equal(memory(), before, 'the module grew its memory');
});

test('load() takes a compiled module or its bytes too', async () => {
  const bytes = await readFile(new URL('../deskkit.wasm', import.meta.url));
  const fromBytes = await load(bytes);
  assert.equal(fromBytes.findLinks('example.com').length, 1);
  const fromModule = await load(new WebAssembly.Module(bytes));
  assert.equal(fromModule.findLinks('example.com').length, 1);
});
