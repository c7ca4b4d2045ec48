// Figures for docs/BENCHMARKS.md (it asserts nothing): renderText, renderPreview and renderMessage per second in headless
// Chromium, on the chat corpus (JSON lines {"text"}, `make_chat_corpus.py`), with findLinks and decodeMessage
// alone in the same page for what the DOM work adds; and the package's sizes (the module, its JavaScript).
//
//   node Web/bench/render-bench.mjs CHAT.jsonl [ROUNDS]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, openPage } from '../test/support/chromium.mjs';

const [file, rounds = '5'] = process.argv.slice(2);
if (!file) throw new Error('usage: node Web/bench/render-bench.mjs CHAT.jsonl [ROUNDS]');
if (!chromium) throw new Error('no Chromium: apt-get install chromium');

const web = new URL('..', import.meta.url);
for (const name of ['deskkit.wasm', 'index.mjs', 'message.mjs', 'render.mjs', 'conversation.mjs', 'strings.mjs', 'index.d.ts', 'card.css']) {
  if (!existsSync(new URL(name, web))) continue;
  const bytes = readFileSync(new URL(name, web));
  console.log(`${name}: ${statSync(new URL(name, web)).size} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
}
const { report } = await openPage(`/bench/render.html?rounds=${rounds}`, { files: { '/bench/chat.jsonl': file }, seconds: 600 });
const r = JSON.parse(report);
const n = (x) => Math.round(x).toLocaleString('en');
console.log(`${r.userAgent}`);
console.log(`chat corpus: ${r.texts} lines (${r.megabytes.toFixed(1)} MB), best of ${rounds}`);
console.log(`findLinks: ${n(r.findLinks.perSecond)} texts/s (${r.findLinks.mbs.toFixed(0)} MB/s)`);
console.log(`renderText: ${n(r.renderText.perSecond)} texts/s (${r.renderText.mbs.toFixed(0)} MB/s); attached and laid out: ${n(r.renderTextLaidOut.perSecond)}/s`);
console.log(`decodeMessage (preview messages as JSON text): ${n(r.decodeMessage.perSecond)}/s`);
console.log(`renderPreview, ${r.previews} messages: ${n(r.renderPreviewText.perSecond)}/s as JSON text, ${n(r.renderPreviewSDK.perSecond)}/s as SDK objects; attached and laid out: ${n(r.renderPreviewLaidOut.perSecond)}/s`);
if (r.renderMessage) console.log(`renderMessage: ${n(r.renderMessage.perSecond)} chat messages/s (JSON text); ${n(r.renderMessagePreviews.perSecond)} preview messages/s`);
