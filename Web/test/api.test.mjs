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
  assert.throws(() => dk.decodeMessage(undefined), DeskKitError);
  assert.throws(() => dk.visibility({ type: 'MESG' }, 'everyone'), TypeError);
  const kept = dk.decodeMessage({ type: 'MESG', message: 'hi', data: '{"type":"SENDBIRD_DESK_URL_PREVIEW","body":' });
  assert.equal(kept.kind, 'malformed');
  assert.equal(kept.error.path, '$.data');
  assert.deepEqual(dk.validate({ type: 'MESG', message: 'hi' }), []);
  assert.equal(dk.validate('{"type":"MESG","message":7}')[0].path, '$.message');
});

test('a widget\'s own message objects: an SDK admin message is hidden from the customer, in every shape', () => {
  const sdk = { messageId: 9, messageType: 'admin', customType: 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE', data: '',
    message: 'Internal note' };
  class AdminMessage {  // what @sendbird/chat hands a widget: members as getters on a class
    get messageId() { return 9; }
    get messageType() { return 'admin'; }
    get customType() { return 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE'; }
    get data() { return ''; }
    get message() { return 'Internal note'; }
    get createdAt() { return 1764000000000; }
  }
  const platform = { message_id: 9, type: 'ADMM', custom_type: 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE', data: '',
    message: 'Internal note' };
  const webhook = { category: 'group_channel:message_send', type: 'ADMM', channel: { channel_url: 'c' },
    payload: { message_id: 9, custom_type: 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE', data: '', message: 'Internal note' } };
  for (const message of [sdk, new AdminMessage(), platform, webhook, JSON.stringify(sdk), JSON.stringify(platform)]) {
    assert.deepEqual(dk.visibility(message, 'customer'), { visible: false, reason: 'system_custom_type' });
    assert.equal(dk.visibility(message, 'agent').visible, true);
    const decoded = dk.decodeMessage(message);
    assert.equal(decoded.messageId, 9);
    assert.equal(decoded.visibleToCustomer, false);
  }
  // 'user' and 'file' are MESG and FILE; any other messageType is kept, and validation says so.
  assert.deepEqual(dk.validate({ messageType: 'file', data: '' }), []);
  assert.equal(dk.validate({ messageType: 'base', data: '' })[0].path, '$.type');
  assert.equal(dk.validate({ messageType: 'constructor', data: '' })[0].path, '$.type');
});

test('what is no message throws a DeskKitError, never an answer', () => {
  for (const bad of [{}, [], 42, null, undefined, true, { message: 'hi' }, { text: 'hi', user: {} }, '{}', '[]', '42',
    '"text"', 'not json']) {
    for (const call of [(m) => dk.decodeMessage(m), (m) => dk.visibility(m, 'customer')]) {
      assert.throws(() => call(bad), (e) => e instanceof DeskKitError && e.problems[0].path === '$', JSON.stringify(bad));
    }
    if (bad !== '"text"') assert.throws(() => dk.validate(bad), DeskKitError, JSON.stringify(bad));
  }
  // A JSON string is a data string to validate, as `deskkit validate` reads it.
  assert.ok(Array.isArray(dk.validate('"text"')));
});

test('answers in camelCase: the message\'s members and each value\'s', () => {
  const system = { type: 'ADMM', custom_type: 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE', message_id: '7', data: JSON.stringify({
    type: 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_AGENT', ticket: { id: 4021, channelUrl: 'c', customFields: [{ key: 'k', value: { snake_case: 1 } }],
      recentAssignment: { agent: { displayName: 'Cindy', photoThumbnailUrl: 'https://x/p.png' }, unreadCount: 2 } } }) };
  const decoded = dk.decodeMessage(system);
  assert.deepEqual(Object.keys(decoded), ['messageId', 'kind', 'encoding', 'visibleToCustomer', 'ticketClosed', 'value', 'error']);
  assert.equal(decoded.messageId, 7);
  assert.equal(decoded.value.ticket.channelUrl, 'c');
  assert.deepEqual(decoded.value.ticket.customFields, [{ key: 'k', value: { snake_case: 1 } }]);  // as written
  assert.equal(decoded.value.ticket.recentAssignment.agent.photoThumbnailUrl, 'https://x/p.png');
  assert.equal(decoded.value.ticket.recentAssignment.unreadCount, 2);
  const closure = dk.decodeData('{"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE","body":{"state":"WAITING","ticketId":4021}}');
  assert.deepEqual(closure.value, { state: 'WAITING', ticketId: 4021 });
  const unknown = dk.decodeData('{"type":"MY_TYPE","some_field":{"inner_key":1}}');
  assert.deepEqual(unknown.value, { type: 'MY_TYPE', data: { type: 'MY_TYPE', some_field: { inner_key: 1 } } });  // as written
  const preview = dk.decodeData('{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://a.example","site_name":"A",' +
    '"title":"T","image":"https://a.example/i.png","image_width":1200,"image_height":630}}');
  assert.deepEqual(preview.value, { url: 'https://a.example', siteName: 'A', title: 'T', description: null,
    image: 'https://a.example/i.png', imageWidth: 1200, imageHeight: 630 });
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
