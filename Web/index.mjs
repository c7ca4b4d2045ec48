// DeskKit for web pages: Sendbird Desk message decoding, visibility, validation and link detection, from the
// same Swift sources as the server, compiled to WebAssembly (deskkit.wasm, beside this file); messages in every
// shape a widget holds (message.mjs); links and cards (render.mjs) and every Desk message (conversation.mjs)
// rendered safely. The API is documented in index.d.ts:
//
//   const dk = await load();
//   const element = dk.renderMessage(sdkMessage, { audience: 'customer', language: 'ar' });  // or null

import { DeskKitError, envelopeText, problemError, previewPayload } from './message.mjs';
import { renderText, renderPreview, renderOptions } from './render.mjs';
import { renderMessage } from './conversation.mjs';

export { DeskKitError };
export { ANSWER_EVENT } from './conversation.mjs';

/** The detector's options in the order of the bits the module reads, with their defaults. */
const LINK_OPTIONS = [
  ['bareDomains', true], ['emails', true], ['ipHosts', false], ['anyScheme', false], ['strictHosts', false],
  ['protocolRelative', true], ['pipesInPaths', false], ['localhost', false], ['anyEmailDomain', false],
  ['requireScheme', false],
];
const DEFAULT_OPTIONS = optionBits(undefined);
/** The bytes where the scanner tries a link (`LinkScanner.candidates`): a text without them has none (tests agree). */
const CANDIDATE = /[.:@/]/;
/** What an href puts before a link's text, by the module's code (`RawLink.Prefix` in DeskKitLinks). */
const PREFIXES = ['', 'http://', 'https://', 'https:', 'mailto:'];
/** The longest URL `safeURL` admits, in code points (`URLSafety.maxLength`); twice that in UTF-16 units at most. */
const MAX_URL = 8192;
/** A lone surrogate, which no Swift string (and so no safe URL) holds. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Problem codes that keep a value as written (`PayloadProblem.Code.isFatal` is false): any other at `$` is no message. */
const KEPT = new Set(['out_of_range', 'unknown_value', 'too_long', 'duplicate_key', 'unsafe_url']);

function optionBits(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object') throw new TypeError('findLinks: options must be an object');
  let bits = 0;
  for (let i = 0; i < LINK_OPTIONS.length; i++) {
    const [name, byDefault] = LINK_OPTIONS[i];
    const value = options[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`findLinks: option ${name} must be a boolean`);
    }
    if (value ?? byDefault) bits |= 1 << i;
  }
  for (const name of Object.keys(options)) {
    if (!LINK_OPTIONS.some(([known]) => known === name)) throw new TypeError(`findLinks: unknown option ${name}`);
  }
  return bits;
}

/** The module's WASI imports: randomness for hashing, a trap's message to the console, no files. */
function wasiImports(memory) {
  const ENOSYS = 52;
  return {
    random_get(pointer, length) {
      globalThis.crypto.getRandomValues(new Uint8Array(memory().buffer, pointer, length));
      return 0;
    },
    fd_write(fd, iovs, count, written) {
      const view = new DataView(memory().buffer);
      let total = 0;
      let text = '';
      for (let i = 0; i < count; i++) {
        const base = view.getUint32(iovs + i * 8, true);
        const length = view.getUint32(iovs + i * 8 + 4, true);
        text += new TextDecoder().decode(new Uint8Array(memory().buffer, base, length));
        total += length;
      }
      if (text.trim()) console.error(`deskkit.wasm: ${text.trim()}`);
      view.setUint32(written, total, true);
      return 0;
    },
    fd_close: () => ENOSYS,
    fd_seek: () => ENOSYS,
  };
}

async function moduleBytes(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source ?? new URL('./deskkit.wasm', import.meta.url);
  if (typeof process !== 'undefined' && process.versions?.node && String(url).startsWith('file:')) {
    // Node only: kept out of bundles (a browser build never reaches this line).
    const nodeFiles = 'node:fs/promises';
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ nodeFiles);
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`deskkit.wasm: ${response.status} ${response.statusText} at ${url}`);
  return response.arrayBuffer();
}

/** Instantiates the module from `source` (a URL, its bytes or a compiled module), else from the file beside this one. */
export async function load(source) {
  const bytes = await moduleBytes(source);
  let instance;
  const imports = { wasi_snapshot_preview1: wasiImports(() => instance.exports.memory) };
  if (bytes instanceof WebAssembly.Module) instance = await WebAssembly.instantiate(bytes, imports);
  else instance = (await WebAssembly.instantiate(bytes, imports)).instance;
  return new DeskKit(instance.exports);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The module's functions over JavaScript values. Every call frees what it allocated. */
class DeskKit {
  #x;
  /** Where texts are written in the module's memory, reused from call to call. */
  #input = 0;
  #capacity = 0;
  #view = null;
  /** Views of the whole memory (`#views()`). */
  #memory = null;
  #words = null;
  #bytes = null;

  constructor(exports) {
    this.#x = exports;
  }

  /** The size of the module's memory in bytes (it grows, never shrinks). */
  get memoryBytes() {
    return this.#x.memory.buffer.byteLength;
  }

  /** Writes `text` as UTF-8 into the input buffer; its length in bytes. */
  #write(text) {
    const x = this.#x;
    // UTF-8 is at most three bytes a UTF-16 code unit.
    const needed = text.length * 3;
    if (needed > this.#capacity) {
      if (this.#input) x.dk_free(this.#input);
      this.#capacity = Math.max(needed, 4096);
      this.#input = x.dk_alloc(this.#capacity);
      if (!this.#input) {
        this.#capacity = 0;
        throw new RangeError('deskkit.wasm: out of memory');
      }
      this.#view = null;
    }
    if (this.#view === null || this.#view.buffer !== x.memory.buffer) {
      this.#view = new Uint8Array(x.memory.buffer, this.#input, this.#capacity);
    }
    return encoder.encodeInto(text, this.#view).written;
  }

  /** After a call: a large input buffer is given back, so one long text does not keep its memory. */
  #release() {
    if (this.#capacity > 1 << 20) {
      this.#x.dk_free(this.#input);
      this.#input = 0;
      this.#capacity = 0;
      this.#view = null;
    }
  }

  /** The views of the whole memory, made again after it grew (its buffer is then a new one). */
  #views() {
    const buffer = this.#x.memory.buffer;
    if (this.#memory !== buffer) {
      this.#memory = buffer;
      this.#words = new Int32Array(buffer);
      this.#bytes = new Uint8Array(buffer);
    }
  }

  /** Calls `fn(input, length, ...rest)`, whose answer is a JSON block it allocated; the parsed JSON. */
  #json(fn, text, ...rest) {
    const length = this.#write(text);
    const answer = fn(this.#input, length, ...rest);
    try {
      this.#views();
      const size = this.#words[answer >> 2];  // blocks are aligned to four bytes
      return JSON.parse(decoder.decode(this.#bytes.subarray(answer + 4, answer + 4 + size)));
    } finally {
      this.#x.dk_free(answer);
      this.#release();
    }
  }

  /** The links in `text` (index.d.ts documents every method's answer). */
  findLinks(text, options) {
    if (typeof text !== 'string') throw new TypeError('findLinks: text must be a string');
    const bits = options === undefined ? DEFAULT_OPTIONS : optionBits(options);
    if (!CANDIDATE.test(text)) return [];
    const x = this.#x;
    // The answer is the module's own answer buffer (not freed): a count, five words a link, then the hrefs.
    const length = this.#write(text);
    const answer = x.dk_find_links(this.#input, length, bits);
    this.#views();
    const words = this.#words;
    const first = answer >> 2;  // the block is aligned: its size, then the count
    const count = words[first + 1];
    if (count === 0) {
      this.#release();
      return [];
    }
    // The hrefs the module wrote out (`LinkAnswer`): most links have none, being a prefix and their text.
    const hrefsAt = answer + 8 + count * 20;
    const hrefsEnd = answer + 4 + words[first];
    const hrefs = hrefsEnd > hrefsAt ? decoder.decode(this.#bytes.subarray(hrefsAt, hrefsEnd)) : '';
    const links = new Array(count);
    let at = 0;
    for (let i = 0, w = first + 2; i < count; i++, w += 5) {
      const start = words[w + 1];
      const end = words[w + 2];
      const linkText = text.slice(start, end);
      const hrefLength = words[w + 3];
      const href = hrefLength < 0 ? PREFIXES[-1 - hrefLength] + linkText : hrefs.slice(at, (at += hrefLength));
      const asciiLength = words[w + 4];
      const asciiHref = asciiLength < 0 ? href : hrefs.slice(at, (at += asciiLength));
      links[i] = { text: linkText, href, asciiHref, kind: words[w] === 1 ? 'email' : 'url', start, end };
    }
    this.#release();
    return links;
  }

  /** A message in any shape a widget holds, decoded as `deskkit decode --messages` does (in camelCase). */
  decodeMessage(message) {
    const summary = this.#json(this.#x.dk_decode_message, envelopeText(message, 'decodeMessage'));
    if (summary.error && summary.error.path === '$') throw problemError('decodeMessage', summary.error);
    return summary;
  }

  /** A message's `data` string (raw or base64 JSON), decoded: `{ kind, encoding, value, problems }`. */
  decodeData(data) {
    if (typeof data !== 'string') throw new TypeError('decodeData: data must be a string');
    return this.#json(this.#x.dk_decode_data, data);
  }

  /** Whether `audience` ('customer' or 'agent') sees the message: `{ visible, reason }`. */
  visibility(message, audience = 'customer') {
    if (audience !== 'customer' && audience !== 'agent') {
      throw new TypeError(`visibility: audience must be 'customer' or 'agent', not ${String(audience)}`);
    }
    const text = envelopeText(message, 'visibility');
    const answer = this.#json(this.#x.dk_visibility, text, audience === 'customer' ? 0 : 1);
    if (answer.error) throw problemError('visibility', answer.error);
    return { visible: answer.visible, reason: answer.reason };
  }

  /** Every problem strict validation finds in a message, a payload or a `data` string's JSON text. */
  validate(message) {
    const problems = this.#json(this.#x.dk_validate, envelopeText(message, 'validate'));
    // Text that is no JSON object is no message — unless it is a JSON string, a `data` string to validate.
    const root = problems.find((p) => p.path === '$' && !KEPT.has(p.code));
    if (root && !(typeof message === 'string' && message.trimStart().startsWith('"'))) throw problemError('validate', root);
    return problems;
  }

  /** `text` when it is a URL a client may open or load — DeskKit's one rule (`URLSafety`) — else null. */
  safeURL(text) {
    return this.#safe(text, 0);
  }

  /** `href` when it is a `mailto:` link a client may open (`URLSafety.isSafeMailto`), else null. */
  safeMailto(href) {
    return this.#safe(href, 1);
  }

  #safe(text, mailto) {
    if (typeof text !== 'string' || !text || text.length > 2 * MAX_URL || LONE_SURROGATE.test(text)) return null;
    const safe = this.#x.dk_safe_url(this.#input, this.#write(text), mailto);
    this.#release();
    return safe ? text : null;
  }

  /** What a card shows of the URL preview in a message or payload, every decision made (`LinkCard`), or null. */
  linkCard(message, options) {
    const limits = [options?.maxTitle ?? 150, options?.maxDescription ?? 300];
    for (const n of limits) {
      if (!Number.isInteger(n) || n < 1 || n > 0x7fffffff) throw new TypeError('linkCard: limits must be positive integers');
    }
    const card = (form, text) => this.#json(this.#x.dk_link_card, text, ...limits, form);
    const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
    let value = message;
    if (typeof message === 'string') {
      try {
        value = JSON.parse(message);
      } catch {
        return card(2, message).card;  // no JSON: a `data` string in base64, or text that is no message
      }
    }
    if (isObject(value)) {
      if (value.kind !== undefined && 'value' in value && value.messageId !== undefined) {
        return value.kind === 'url_preview' && isObject(value.value) ? card(2, previewPayload(value.value)).card : null;
      }
      if (typeof value.type === 'string' && value.type.startsWith('SENDBIRD_DESK_') && value.body !== undefined) {
        return card(2, JSON.stringify(value)).card;
      }
    }
    const answer = card(1, envelopeText(message, 'linkCard'));
    if (answer.error) throw problemError('linkCard', answer.error);
    return answer.card;  // Desk's preview, else Sendbird's own (`DeskMessage.sendbirdPreview`)
  }

  /** `text` as a fragment of text nodes and links (`render.mjs`). */
  renderText(text, options) {
    return renderText(this, text, options);
  }

  /** The preview card of a message or a `SENDBIRD_DESK_URL_PREVIEW` payload, or null (`render.mjs`). */
  renderPreview(message, options) {
    return renderPreview(this, message, options);
  }

  /** The element a widget shows for a message, or null for what the audience does not see (`conversation.mjs`). */
  renderMessage(message, options) {
    return renderMessage(this, renderOptions(options, 'renderMessage'), message);
  }
}
