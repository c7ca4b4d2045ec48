// Chat text as text nodes and links, a URL preview as a card. All of it is untrusted, so no markup is parsed: a URL
// reaches an `href` or `src` only when the module's rule calls it safe (`dk.safeURL`, `dk.safeMailto`), and a card
// shows what the module's `LinkCard` decides (`dk.linkCard`): this file only builds elements.

/** The defaults of the rendering options. */
const DEFAULTS = { maxTitle: 150, maxDescription: 300, imageLabel: 'image' };
const OPTION_NAMES = ['document', 'imageURL', 'linkOptions', 'maxTitle', 'maxDescription', 'emailLinks', 'imageLabel',
  'audience', 'language'];
const REL = 'noopener noreferrer nofollow';
/** An image carried in the page (`CardHTML.isInlineImage`): an image mapper may answer one. */
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]*={0,2}$/;

/** The options with their defaults; a wrong name or type is a TypeError. */
export function renderOptions(options, call) {
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
    emailLinks: options.emailLinks ?? true,
    imageLabel: options.imageLabel ?? DEFAULTS.imageLabel,
    audience: options.audience ?? 'customer',
    language: options.language ?? 'en',
  };
  if (o.audience !== 'customer' && o.audience !== 'agent') {
    throw new TypeError(`${call}: audience must be 'customer' or 'agent', not ${String(o.audience)}`);
  }
  if (typeof o.language !== 'string') throw new TypeError(`${call}: language must be a BCP 47 tag`);
  if (!o.document || typeof o.document.createElement !== 'function') {
    throw new TypeError(`${call}: no document: pass options.document`);
  }
  if (o.imageURL !== null && typeof o.imageURL !== 'function') throw new TypeError(`${call}: imageURL must be a function`);
  for (const name of ['maxTitle', 'maxDescription']) {
    if (!Number.isInteger(o[name]) || o[name] < 1) throw new TypeError(`${call}: ${name} must be a positive integer`);
  }
  if (typeof o.emailLinks !== 'boolean') throw new TypeError(`${call}: emailLinks must be a boolean`);
  if (typeof o.imageLabel !== 'string') throw new TypeError(`${call}: imageLabel must be a string`);
  return o;
}

/** An element of `document` with a class and, when given, a text of the card (`{ text, dir }`) as a text node. */
function element(document, name, className, text) {
  const e = document.createElement(name);
  e.className = className;
  if (text !== undefined) {
    e.setAttribute('dir', text.dir);
    e.textContent = text.text;
  }
  return e;
}

export function setLink(a, href) {
  a.setAttribute('href', href);
  a.setAttribute('rel', REL);
  a.setAttribute('target', '_blank');
}

/**
 * `text` as a DocumentFragment: text nodes, and each link `findLinks` finds as
 * `<a href="{asciiHref}" rel="noopener noreferrer nofollow" target="_blank">{text}</a>` when its href is a safe
 * http(s) URL, or a safe `mailto:` one (`dk.safeMailto`; not with `emailLinks: false`); any other link stays text.
 */
export function renderText(dk, text, options) {
  if (typeof text !== 'string') throw new TypeError('renderText: text must be a string');
  const o = renderOptions(options, 'renderText');
  const fragment = o.document.createDocumentFragment();
  let at = 0;
  for (const link of dk.findLinks(text, o.linkOptions)) {
    const href = link.kind === 'email' ? (o.emailLinks ? dk.safeMailto(link.asciiHref) : null) : dk.safeURL(link.asciiHref);
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
 * The card of the URL preview in a message (any shape, or decoded) or a payload, from `dk.linkCard`'s decisions.
 * `imageURL` maps the image's URL to a safe URL or a `data:image/…;base64,` one, else no image (as `CardHTML`).
 */
export function renderPreview(dk, message, options) {
  const o = renderOptions(options, 'renderPreview');
  const card = dk.linkCard(message, { maxTitle: o.maxTitle, maxDescription: o.maxDescription });
  if (!card) return null;
  let src = card.image?.url ?? null;
  if (src !== null && o.imageURL) {
    let mapped = o.imageURL(src) ?? null;
    if (mapped instanceof URL) mapped = mapped.href;
    src = typeof mapped === 'string' ? (INLINE_IMAGE.test(mapped) ? mapped : dk.safeURL(mapped)) : null;
  }
  if (!card.title && !card.description && !src) return null;

  const d = o.document;
  const root = element(d, card.link ? 'a' : 'div', 'deskkit-card');
  if (card.link) setLink(root, card.link);
  if (src) {
    const media = element(d, 'div', 'deskkit-card-media');
    const img = d.createElement('img');
    img.setAttribute('src', src);
    img.setAttribute('alt', card.image.alt ?? o.imageLabel);
    img.setAttribute('referrerpolicy', 'no-referrer');
    img.setAttribute('loading', 'lazy');
    img.setAttribute('decoding', 'async');
    if (card.image.width) {
      img.setAttribute('width', String(card.image.width));
      img.setAttribute('height', String(card.image.height));
    }
    // An image that fails keeps its box (the card does not move), without the browser's broken-image sign.
    img.addEventListener('error', () => media.setAttribute('data-failed', ''), { once: true });
    media.append(img);
    root.append(media);
  }
  const body = element(d, 'div', 'deskkit-card-body');
  for (const part of ['site', 'title', 'description']) {
    if (card[part]) body.append(element(d, 'div', `deskkit-card-${part}`, card[part]));
  }
  if (card.host) body.append(element(d, 'div', 'deskkit-card-host', { text: card.host, dir: 'ltr' }));
  root.append(body);
  return root;
}
