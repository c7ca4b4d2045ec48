// Figures for docs/BENCHMARKS.md (it asserts nothing). In one Node process, on the same inputs:
//   - load(): instantiating deskkit.wasm, the first time and then the median of 20;
//   - findLinks on chat lines (JSON lines {"text"}: the links benchmark's corpus), strings' crossing into and out
//     of the module counted, against linkify-it (Debian's node-markdown-it) on the same strings, alternated;
//   - decodeMessage against JSON.parse plus a hand decoder of the same fields (what a widget writes instead).
//
//   node Web/bench/bench.mjs CHAT.jsonl [ROUNDS]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { load } from '../index.mjs';

const [file, roundsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node Web/bench/bench.mjs CHAT.jsonl [ROUNDS]');
const rounds = Number(roundsArg ?? 5);

let t = performance.now();
const dk = await load();
const firstLoad = performance.now() - t;
const loads = [];
for (let i = 0; i < 20; i++) {
  t = performance.now();
  await load();
  loads.push(performance.now() - t);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`load(): first ${firstLoad.toFixed(1)} ms, then median ${median(loads).toFixed(1)} ms (20)`);

const texts = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text);
const megabytes = Buffer.byteLength(texts.join('')) / 1e6;
const require = createRequire(import.meta.url);
const LinkifyIt = require('/usr/share/nodejs/markdown-it/node_modules/linkify-it');
const linkify = new LinkifyIt();

function time(name, each) {
  const start = performance.now();
  let found = 0;
  for (const text of texts) found += each(text);
  const ms = performance.now() - start;
  return { name, ms, found, mbs: megabytes / (ms / 1000) };
}
const runs = { deskkit: [], linkify: [] };
for (let r = 0; r < rounds; r++) {
  runs.deskkit.push(time('deskkit', (s) => dk.findLinks(s).length));
  runs.linkify.push(time('linkify-it', (s) => (linkify.match(s) ?? []).length));
}
const best = (xs) => xs.reduce((a, b) => (a.mbs > b.mbs ? a : b));
const d = best(runs.deskkit);
const l = best(runs.linkify);
console.log(`findLinks, ${texts.length} lines (${megabytes.toFixed(1)} MB): deskkit ${d.mbs.toFixed(0)} MB/s ` +
  `(${d.found} links), linkify-it ${l.mbs.toFixed(0)} MB/s (${l.found} links): ${(d.mbs / l.mbs).toFixed(1)}x ` +
  `(best of ${rounds}; medians ${median(runs.deskkit.map((x) => x.mbs)).toFixed(0)} / ${median(runs.linkify.map((x) => x.mbs)).toFixed(0)})`);

// Messages: closure inquiries, previews and plain text, as JSON text the widget receives.
const messages = [];
for (let i = 0; i < 100000; i++) {
  const m = i % 3;
  messages.push(JSON.stringify(m === 0
    ? { type: 'MESG', message_id: i, message: texts[i % texts.length] }
    : m === 1
      ? { type: 'MESG', message_id: i, message: 'Closed?', custom_type: 'SENDBIRD_DESK_RICH_MESSAGE',
        data: JSON.stringify({ type: 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE', body: { state: 'WAITING', ticketId: i } }) }
      : { type: 'MESG', message_id: i, message: 'see https://example.com/a', custom_type: 'SENDBIRD_DESK_RICH_MESSAGE',
        data: JSON.stringify({ type: 'SENDBIRD_DESK_URL_PREVIEW', body: { url: 'https://example.com/a', title: 'A', description: 'B', image: 'https://example.com/i.png', siteName: 'Example' } }) }));
}
function handDecode(text) {
  // What a widget writes without DeskKit: parse, then parse data and pick the fields it shows.
  const m = JSON.parse(text);
  let data = null;
  if (typeof m.data === 'string' && m.data) { try { data = JSON.parse(m.data); } catch { data = null; } }
  const hidden = m.custom_type === 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE';
  if (data?.type === 'SENDBIRD_DESK_URL_PREVIEW') return { kind: 'url_preview', hidden, url: data.body?.url, title: data.body?.title };
  if (data?.type === 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE') return { kind: 'closure_inquiry', hidden, state: data.body?.state };
  return { kind: 'plain', hidden };
}
for (let r = 0; r < 3; r++) {
  t = performance.now();
  for (const m of messages) dk.decodeMessage(m);
  const ours = performance.now() - t;
  t = performance.now();
  for (const m of messages) handDecode(m);
  const hand = performance.now() - t;
  console.log(`decodeMessage, ${messages.length} messages: ${(messages.length / ours * 1000).toFixed(0)}/s; ` +
    `JSON.parse + a hand decoder: ${(messages.length / hand * 1000).toFixed(0)}/s (${(ours / hand).toFixed(1)}x its time)`);
}
