// The web module answers as the `deskkit` command does, on the repository's corpora and the public link suites:
// links (text, href, ASCII href, kind, UTF-16 offsets) under every option set the command's tests use, decoded messages and
// data, what the customer sees, and strict validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../index.mjs';
import { linkTexts, envelopes, dataStrings, run, camelCaseAnswer, isNoMessage } from './support/corpus.mjs';

const dk = await load();

/** Each option set: the command's flags and the same options in JavaScript's terms. */
const optionSets = [
  [[], {}],
  [['--no-bare-domains'], { bareDomains: false }],
  [['--no-emails'], { emails: false }],
  [['--ip-hosts', '--any-scheme'], { ipHosts: true, anyScheme: true }],
  [['--strict-hosts'], { strictHosts: true }],
  [['--no-protocol-relative', '--pipes-in-paths'], { protocolRelative: false, pipesInPaths: true }],
  [['--localhost', '--any-email-domain'], { localhost: true, anyEmailDomain: true }],
  [['--require-scheme'], { requireScheme: true }],
  [['--no-bare-domains', '--no-emails', '--ip-hosts', '--any-scheme', '--strict-hosts', '--localhost'],
    { bareDomains: false, emails: false, ipHosts: true, anyScheme: true, strictHosts: true, localhost: true }],
];

test('links: the same as deskkit detect --jsonl under every option set', () => {
  const texts = linkTexts();
  assert.ok(texts.length > 1500, `${texts.length} texts`);
  const input = texts.map((text) => JSON.stringify({ text })).join('\n') + '\n';
  for (const [flags, options] of optionSets) {
    const lines = run(['detect', '--jsonl', '--threads', '1', ...flags], input);
    assert.equal(lines.length, texts.length);
    texts.forEach((text, i) => {
      const native = JSON.parse(lines[i]).links.map((l) => ({
        text: l.text, href: l.url, asciiHref: l.ascii_url, kind: l.kind, start: l.utf16_start, end: l.utf16_end,
      }));
      const web = dk.findLinks(text, options)
        .map(({ text, href, asciiHref, kind, start, end }) => ({ text, href, asciiHref, kind, start, end }));
      assert.deepEqual(web, native, `${flags.join(' ') || 'defaults'}: ${JSON.stringify(text).slice(0, 200)}`);
    });
  }
});

test('messages: decodeMessage gives the line deskkit decode --messages prints, in camelCase', () => {
  const lines = envelopes();
  assert.ok(lines.length > 50);
  const native = run(['decode', '--messages', '--threads', '1'], lines.join('\n') + '\n');
  assert.equal(native.length, lines.length);
  lines.forEach((line, i) => {
    const expected = JSON.parse(native[i]);
    if (isNoMessage(line)) {
      assert.throws(() => dk.decodeMessage(line), (e) => e.name === 'DeskKitError' && e.problems[0].code === 'missing_field');
    } else if (expected.error?.path === '$') {
      assert.throws(() => dk.decodeMessage(line), (e) => e.name === 'DeskKitError' && e.problems[0].code === expected.error.code);
    } else {
      assert.deepEqual(dk.decodeMessage(line), camelCaseAnswer(expected), line.slice(0, 200));
    }
  });
});

test('data: decodeData gives what deskkit decode DATA prints, in camelCase', () => {
  for (const data of dataStrings()) {
    const [line] = run(['decode', data]);
    assert.deepEqual(dk.decodeData(data), camelCaseAnswer(JSON.parse(line)), data.slice(0, 200));
  }
});

test('visibility: the customer sees what deskkit filter --audience customer keeps', () => {
  const lines = envelopes().filter((l) => { try { dk.decodeMessage(l); return true; } catch { return false; } });
  const kept = new Set(run(['filter', '--audience', 'customer'], lines.join('\n') + '\n'));
  for (const line of lines) {
    const { visible } = dk.visibility(line, 'customer');
    assert.equal(visible, kept.has(line), line.slice(0, 200));
    assert.equal(dk.visibility(line, 'agent').visible, true);
  }
});

test('validation: validate lists the problems deskkit validate --jsonl lists; what is no message throws', () => {
  const lines = envelopes();
  const native = run(['validate', '--jsonl'], lines.join('\n') + '\n');
  assert.equal(native.length, lines.length);
  lines.forEach((line, i) => {
    const problems = JSON.parse(native[i]).problems;
    let answer;
    try {
      answer = dk.validate(line);
    } catch (e) {
      // No message: not JSON, not an object, or none of the members that make one.
      assert.equal(e.name, 'DeskKitError', line.slice(0, 200));
      assert.equal(e.problems[0].path, '$', line.slice(0, 200));
      if (!isNoMessage(line)) assert.deepEqual(e.problems[0], problems.find((p) => p.path === '$'), line.slice(0, 200));
      return;
    }
    assert.deepEqual(answer, problems, line.slice(0, 200));
  });
});

/** `message` (a Platform API object) as `@sendbird/chat` holds it: a class instance whose members are getters. */
class SDKMessage {
  #m;
  constructor(m) { this.#m = m; }
  get messageId() { return this.#m.message_id; }
  get messageType() { return { MESG: 'user', FILE: 'file', ADMM: 'admin' }[this.#m.type] ?? this.#m.type; }
  get customType() { return this.#m.custom_type; }
  get data() { return this.#m.data; }
  get message() { return this.#m.message; }
  get createdAt() { return this.#m.created_at; }
}

/** Each answer, or the DeskKitError's first problem's code. */
function answers(message) {
  const answer = (call) => {
    try {
      return call();
    } catch (e) {
      assert.equal(e.name, 'DeskKitError', String(e));
      return { threw: e.problems[0].code };
    }
  };
  return {
    decoded: answer(() => dk.decodeMessage(message)),
    customer: answer(() => dk.visibility(message, 'customer')),
    agent: answer(() => dk.visibility(message, 'agent')),
    problems: answer(() => dk.validate(message)),
  };
}

test('every message of the corpora gets the same answers as JSON text, a Platform API object, a webhook and an SDK object', () => {
  let compared = 0;
  for (const line of envelopes()) {
    let object;
    try {
      object = JSON.parse(line);
    } catch {
      continue;
    }
    if (object === null || typeof object !== 'object' || Array.isArray(object) || 'body' in object) continue;
    if (['user', 'file', 'admin'].includes(object.type)) continue;  // an SDK object cannot say these
    const expected = answers(JSON.stringify(object));
    const { type, ...payload } = object;
    const webhook = { category: 'group_channel:message_send', type, payload, channel: { channel_url: 'c' } };
    const sdk = new SDKMessage(object);
    for (const [shape, message] of [['object', object], ['webhook', webhook], ['sdk', sdk], ['sdk text',
      JSON.stringify({ messageId: sdk.messageId, messageType: sdk.messageType, customType: sdk.customType,
        data: sdk.data, message: sdk.message, createdAt: sdk.createdAt })]]) {
      assert.deepEqual(answers(message), expected, `${shape}: ${line.slice(0, 200)}`);
    }
    compared++;
  }
  assert.ok(compared > 80, `${compared} messages`);
});
