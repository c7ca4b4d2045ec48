// The web module answers as the `deskkit` command does, on the repository's corpora and the public link suites:
// links (text, href, ASCII href, kind, UTF-16 offsets) under every option set the command's tests use, decoded messages and
// data, what the customer sees, and strict validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../index.mjs';
import { linkTexts, envelopes, dataStrings, run } from './support/corpus.mjs';

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

test('messages: decodeMessage gives the line deskkit decode --messages prints', () => {
  const lines = envelopes();
  assert.ok(lines.length > 50);
  const native = run(['decode', '--messages', '--threads', '1'], lines.join('\n') + '\n');
  assert.equal(native.length, lines.length);
  lines.forEach((line, i) => {
    const expected = JSON.parse(native[i]);
    if (expected.error?.path === '$') {
      assert.throws(() => dk.decodeMessage(line), (e) => e.name === 'DeskKitError' && e.problems[0].code === expected.error.code);
    } else {
      assert.deepEqual(dk.decodeMessage(line), expected, line.slice(0, 200));
    }
  });
});

test('data: decodeData gives what deskkit decode DATA prints', () => {
  for (const data of dataStrings()) {
    const [line] = run(['decode', data]);
    assert.deepEqual(dk.decodeData(data), JSON.parse(line), data.slice(0, 200));
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

test('validation: validate lists the problems deskkit validate --jsonl lists', () => {
  const lines = envelopes();
  const native = run(['validate', '--jsonl'], lines.join('\n') + '\n');
  assert.equal(native.length, lines.length);
  lines.forEach((line, i) => assert.deepEqual(dk.validate(line), JSON.parse(native[i]).problems, line.slice(0, 200)));
});
