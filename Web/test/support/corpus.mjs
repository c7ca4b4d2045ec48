// The inputs the tests compare the web module and the `deskkit` command on, read from the repository.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const root = new URL('../../../', import.meta.url).pathname;

/** The `deskkit` binary the answers are compared with (DESKKIT, or the debug build `swift build` makes). */
export const deskkit = process.env.DESKKIT ?? join(root, '.build/debug/deskkit');

function files(folder) {
  const out = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else out.push(path);
  }
  return out;
}

/** Every text of Corpus/links and every case of the public link suites in Tests/DeskKitLinksTests/Fixtures. */
export function linkTexts() {
  const texts = files(join(root, 'Corpus/links')).map((f) => readFileSync(f, 'utf8'));
  const fixtures = join(root, 'Tests/DeskKitLinksTests/Fixtures');
  for (const f of files(fixtures).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const c = JSON.parse(line);
      if (typeof c.text === 'string') texts.push(c.text);
      else if (typeof c.input === 'string') texts.push(c.input);
    }
  }
  return texts;
}

/** Message envelopes: the JSON files of Corpus/messages and Corpus/envelope, and the lines of its .jsonl files. */
export function envelopes() {
  const out = [];
  for (const f of [...files(join(root, 'Corpus/messages')), ...files(join(root, 'Corpus/envelope'))]) {
    const text = readFileSync(f, 'utf8');
    if (f.endsWith('.jsonl')) out.push(...text.split('\n').filter((l) => l.trim()));
    else if (!f.endsWith('.data') && text.trim()) out.push(text.replace(/\n/g, ' '));
  }
  return out;
}

/** `data` strings: the .data files of Corpus/messages and the files of Corpus/message-data. */
export function dataStrings() {
  return [...files(join(root, 'Corpus/messages')).filter((f) => f.endsWith('.data')), ...files(join(root, 'Corpus/message-data'))]
    .map((f) => readFileSync(f, 'utf8'))
    .filter((d) => !d.includes('\0'));
}

/** Runs `deskkit args…` with `input` on standard input; its standard output's lines. */
export function run(args, input) {
  const r = spawnSync(deskkit, args, { input, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 1) throw new Error(`deskkit ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** `key` in camelCase, as the web module writes its answers' members (`ticket_id` → `ticketId`). */
export function camelCase(key) {
  return key.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
}

/**
 * A line `deskkit decode` prints, with its members in camelCase as the web module answers: every member DeskKit
 * names, and none of what a payload carries as written (an unknown payload's `data`, a custom field's `value`).
 */
export function camelCaseAnswer(answer) {
  const camel = (value, keep) => {
    if (Array.isArray(value)) return value.map((v) => camel(v, keep));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelCase(k), keep(k) ? v : camel(v, keep)]));
  };
  const value = answer.kind === 'unknown' ? { ...answer.value } : answer.value;
  const converted = camel({ ...answer, value: null }, () => false);
  converted.value = answer.kind === 'unknown'
    ? { type: value.type, data: value.data }
    : camel(value, (k) => k === 'value');  // a ticket's custom field: { key, value as written }
  return converted;
}

/** Whether `line` is a JSON object with none of the members that make a message (the web module throws for it). */
export function isNoMessage(line) {
  let parsed;
  try {
    parsed = JSON.parse(line);
  } catch {
    return false;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) &&
    !['type', 'custom_type', 'data', 'message_id'].some((k) => parsed[k] !== undefined);
}
