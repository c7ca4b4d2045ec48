// Rendering for web widgets: chat text as text nodes and links, a URL preview as a card. Everything rendered is
// untrusted (a customer's text, a page's title), so no markup is ever parsed: text goes into text nodes only, and
// a URL reaches an `href` or `src` only when it is http(s) by every reading (`safeURL`).

/** The defaults of the rendering options. */
const DEFAULTS = { maxTitle: 150, maxDescription: 300 };
const OPTION_NAMES = ['document', 'imageURL', 'linkOptions', 'maxTitle', 'maxDescription', 'emailLinks'];
/** The longest URL put into an attribute; a longer one is no link and no image. */
const MAX_URL = 8192;
/**
 * What a browser drops or ignores in a URL's scheme, or what hides it from a reader: C0 and C1 controls, every
 * white space, zero-width and bidirectional marks, the byte-order mark.
 */
const INVISIBLE = /[\u0000-\u0020\u007f-\u00a0\u00ad\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u206a-\u206f\u3000\ufeff]/g;
const REL = 'noopener noreferrer nofollow';

const graphemes = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The options with their defaults; a wrong name or type is a TypeError. */
function renderOptions(options, call) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object') throw new TypeError(`${call}: options must be an object`);
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.includes(name)) throw new TypeError(`${call}: unknown option ${name}`);
  }
  const o = {
    document: options.document ?? globalThis.document,
    imageURL: options.imageURL ?? null,
    linkOptions: options.linkOptions,
    maxTitle: options.maxTitle ?? DEFAULTS.maxTitle,
    maxDescription: options.maxDescription ?? DEFAULTS.maxDescription,
    emailLinks: options.emailLinks ?? false,
  };
  if (!o.document || typeof o.document.createElement !== 'function') {
    throw new TypeError(`${call}: no document: pass options.document`);
  }
  if (o.imageURL !== null && typeof o.imageURL !== 'function') throw new TypeError(`${call}: imageURL must be a function`);
  for (const name of ['maxTitle', 'maxDescription']) {
    if (!Number.isInteger(o[name]) || o[name] < 1) throw new TypeError(`${call}: ${name} must be a positive integer`);
  }
  if (typeof o.emailLinks !== 'boolean') throw new TypeError(`${call}: emailLinks must be a boolean`);
  return o;
}

/** `%XX` decoded wherever it is a byte (invalid UTF-8 and stray `%` left as they are). */
function percentDecoded(text) {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/**
 * The scheme of `text` as anything reading it might see it — after percent-decoding (repeated) and with every
 * control and white-space character removed — lowercased; '' for a relative URL.
 */
function schemeOf(text) {
  let seen = text;
  for (let round = 0; round < 8; round++) {
    const next = percentDecoded(seen).replace(INVISIBLE, '');
    if (next === seen) break;
    seen = next;
  }
  const scheme = /^([^:/?#]*):/.exec(seen);
  return scheme ? scheme[1].toLowerCase() : '';
}

/**
 * `text` as an absolute URL fit for an `href` or `src` — http or https by every reading, with a host and no
 * user name or password — or null. A relative URL (an image proxy's path) is read against the document's.
 */
function safeURL(text, document = globalThis.document) {
  return checkedURL(text, document)?.href ?? null;
}

/** `safeURL`'s URL object, or null. */
function checkedURL(text, document) {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_URL) return null;
  const scheme = schemeOf(text);
  if (scheme !== '' && scheme !== 'http' && scheme !== 'https') return null;
  let url;
  try {
    url = new URL(text, document?.baseURI);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname || url.username || url.password) return null;
  return url;
}

/** `text` cut to at most `max` graphemes, the last an ellipsis when it was cut; never inside a grapheme. */
function clip(text, max) {
  if (text.length <= max) return text;  // fewer code units than max: fewer graphemes too
  let count = 0;
  let cut = 0;
  for (const { index } of graphemes ? graphemes.segment(text) : codePoints(text)) {
    if (count === max - 1) cut = index;  // where the ellipsis goes, if there are more than max
    else if (count === max) return text.slice(0, cut).trimEnd() + '…';
    count++;
  }
  return text;
}

/** The code points of `text` with their offsets: the graphemes' stand-in where Intl.Segmenter is missing. */
function* codePoints(text) {
  let index = 0;
  for (const c of text) {
    yield { index, segment: c };
    index += c.length;
  }
}

/** An element of `document` with a class and, when given, its text (a text node) and `dir="auto"`. */
function element(document, name, className, text) {
  const e = document.createElement(name);
  e.className = className;
  if (text !== undefined) {
    e.setAttribute('dir', 'auto');
    e.textContent = text;
  }
  return e;
}

function setLink(a, href) {
  a.setAttribute('href', href);
  a.setAttribute('rel', REL);
  a.setAttribute('target', '_blank');
}

/**
 * `text` as a DocumentFragment: text nodes, and each link `findLinks` finds as
 * `<a href="{asciiHref}" rel="noopener noreferrer nofollow" target="_blank">{text}</a>` when its href is http(s)
 * (e-mail addresses as `mailto:` links with `emailLinks`); any other link stays text.
 */
export function renderText(dk, text, options) {
  if (typeof text !== 'string') throw new TypeError('renderText: text must be a string');
  const o = renderOptions(options, 'renderText');
  const fragment = o.document.createDocumentFragment();
  let at = 0;
  for (const link of dk.findLinks(text, o.linkOptions)) {
    const href = link.kind === 'email'
      ? (o.emailLinks && /^mailto:[^\s:/?#]+@[^\s/?#]+$/i.test(link.asciiHref) ? link.asciiHref : null)
      : (safeURL(link.asciiHref, o.document) && link.asciiHref);
    if (!href) continue;
    if (link.start > at) fragment.append(o.document.createTextNode(text.slice(at, link.start)));
    const a = o.document.createElement('a');
    setLink(a, href);
    a.textContent = link.text;
    fragment.append(a);
    at = link.end;
  }
  if (at < text.length) fragment.append(o.document.createTextNode(text.slice(at)));
  return fragment;
}

/**
 * The URL preview `message` carries, typed as `decodeMessage` types it (`{ url, siteName, title, description,
 * image, imageWidth?, imageHeight? }`), or null. `message` is a message in any shape, its decoded answer, or a
 * `SENDBIRD_DESK_URL_PREVIEW` payload (an object, its JSON text, or a `data` string in base64).
 */
function previewOf(dk, message) {
  let value = message;
  if (typeof message === 'string') {
    try {
      value = JSON.parse(message);
    } catch {
      // No JSON: a `data` string in base64, or text the module says is no message.
      const decoded = dk.decodeData(message);
      if (decoded.kind === 'url_preview') return decoded.value;
      value = message;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (value.kind !== undefined && 'value' in value && value.messageId !== undefined) {
      return value.kind === 'url_preview' && value.value !== null && typeof value.value === 'object' ? value.value : null;
    }
    if (typeof value.type === 'string' && value.type.startsWith('SENDBIRD_DESK_') && value.body !== undefined) {
      const decoded = dk.decodeData(JSON.stringify(value));
      return decoded.kind === 'url_preview' ? decoded.value : null;
    }
  }
  const decoded = dk.decodeMessage(message);
  if (decoded.kind === 'url_preview') return decoded.value;
  return value !== null && typeof value === 'object' ? sendbirdPreview(value) : null;
}

/**
 * Sendbird's own link preview of a message without a Desk one — `ogMetaData` in `@sendbird/chat` (`{ title, url,
 * description, defaultImage: { url, secureUrl, width, height } }`), `og_tag` in the Platform API (`{ "og:title",
 * "og:url", "og:description", "og:image": { url, secure_url, width, height } }`) — as a URL preview value, or null.
 * Its members are checked as a payload's are: only strings are text, only http(s) a link.
 */
function sendbirdPreview(message) {
  const sdk = message.ogMetaData;
  const platform = message.og_tag;
  if (sdk !== null && typeof sdk === 'object') {
    const image = sdk.defaultImage ?? {};
    return { url: sdk.url, siteName: null, title: sdk.title, description: sdk.description,
      image: image.secureUrl ?? image.url, imageWidth: image.width, imageHeight: image.height };
  }
  if (platform !== null && typeof platform === 'object') {
    const image = platform['og:image'] ?? {};
    return { url: platform['og:url'], siteName: null, title: platform['og:title'], description: platform['og:description'],
      image: image.secure_url ?? image.url, imageWidth: image.width, imageHeight: image.height };
  }
  return null;
}

/** A positive pixel size for an attribute, or null. */
function pixels(n) {
  return Number.isInteger(n) && n > 0 && n < 100000 ? String(n) : null;
}

/**
 * The card of the URL preview in `message` — a message in any shape, or a `SENDBIRD_DESK_URL_PREVIEW` payload —
 * as an element: `<a class="deskkit-card">` (a `<div>` when its URL is not http(s)) holding the image, the site's
 * name, the title, the description and the link's host. Null when there is no preview, or it has no title,
 * description or image.
 */
export function renderPreview(dk, message, options) {
  const o = renderOptions(options, 'renderPreview');
  const preview = previewOf(dk, message);
  if (!preview) return null;
  const textOf = (s, max) => (typeof s === 'string' && s.trim() !== '' ? clip(s.trim(), max) : null);
  const title = textOf(preview.title, o.maxTitle);
  const description = textOf(preview.description, o.maxDescription);
  const siteName = textOf(preview.siteName, o.maxTitle);
  let image = typeof preview.image === 'string' && preview.image !== '' ? preview.image : null;
  if (image !== null && o.imageURL) {
    image = o.imageURL(image) ?? null;
    if (image instanceof URL) image = image.href;
  }
  const src = safeURL(image, o.document);
  if (!title && !description && !src) return null;

  const d = o.document;
  const link = checkedURL(preview.url, d);
  const card = element(d, link ? 'a' : 'div', 'deskkit-card');
  if (link) setLink(card, link.href);
  if (src) {
    const media = element(d, 'div', 'deskkit-card-media');
    const img = d.createElement('img');
    img.setAttribute('src', src);
    // Beside a title the image is decoration; alone, it names the link.
    img.setAttribute('alt', title || description ? '' : (siteName ?? link?.host ?? ''));
    img.setAttribute('referrerpolicy', 'no-referrer');
    img.setAttribute('loading', 'lazy');
    img.setAttribute('decoding', 'async');
    const width = pixels(preview.imageWidth);
    const height = pixels(preview.imageHeight);
    if (width && height) {
      img.setAttribute('width', width);
      img.setAttribute('height', height);
    }
    // An image that fails keeps its box (the card does not move), without the browser's broken-image sign.
    img.addEventListener('error', () => media.setAttribute('data-failed', ''), { once: true });
    media.append(img);
    card.append(media);
  }
  const body = element(d, 'div', 'deskkit-card-body');
  if (siteName) body.append(element(d, 'div', 'deskkit-card-site', siteName));
  if (title) body.append(element(d, 'div', 'deskkit-card-title', title));
  if (description) body.append(element(d, 'div', 'deskkit-card-description', description));
  if (link) body.append(element(d, 'div', 'deskkit-card-host', link.host));
  card.append(body);
  return card;
}
