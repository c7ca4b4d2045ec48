// Every Desk message as a widget shows it, the customer's answers as DOM events for the Desk SDK, in the words of
// ConversationPage's tables (strings.mjs); nothing from a message is parsed as markup.
import { TABLES } from './strings.mjs';
import { shapedMessage } from './message.mjs';
import { setLink } from './render.mjs';

/** The event an answer dispatches (bubbling, composed), its `detail` a `DeskKitAnswer` (index.d.ts). */
export const ANSWER_EVENT = 'deskkit-answer';
let surveys = 0;

const cache = new Map();

/**
 * The interface's words in the table for `tag` (as written, then by language: `zh-CN` is zh-Hans, `zh-TW` has none;
 * else English): `text(key, values)`, and `count(key, n)` in the CLDR plural form (Intl's, as ICU's for Swift).
 */
function interfaceWords(tag) {
  if (cache.has(tag)) return cache.get(tag);
  const wanted = tag.toLowerCase();
  const language = wanted.split('-')[0];
  const t = Object.keys(TABLES).find((key) => key.toLowerCase() === wanted)
    ?? (language === 'zh' ? (/hant|tw|hk|mo/.test(wanted) ? 'en' : 'zh-Hans') : Object.hasOwn(TABLES, language) ? language : 'en');
  const { dir, strings } = TABLES[t];
  const fill = (s, values) => s.replace(/\{(\w+)\}/g, (m, name) => values[name] ?? m);
  const plurals = new Intl.PluralRules(t);
  const numbers = new Intl.NumberFormat(t, { numberingSystem: 'latn' });  // as ConversationPage writes them
  const words = {
    tag: t, dir,
    text: (key, values = {}) => fill(strings[key].other ?? strings[key], values),
    count: (key, n) => fill(strings[key][plurals.select(n)] ?? strings[key].other, { count: numbers.format(n) }),
  };
  cache.set(tag, words);
  return words;
}

/** The element a widget shows for `message`, or null for what `o.audience` does not see (index.d.ts). */
export function renderMessage(dk, o, message) {
  const { audience } = o;
  const words = interfaceWords(o.language);
  const decoded = dk.decodeMessage(message);
  const { kind } = decoded;
  if (audience === 'customer' && (!decoded.visibleToCustomer || /^(unknown|malformed)$/.test(kind))) return null;
  const d = o.document;
  const make = (name, className, text, dir) => {
    const e = d.createElement(name);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    if (dir) e.setAttribute('dir', dir);
    return e;
  };
  const root = make('div', 'deskkit-message');
  root.dataset.kind = kind;
  root.lang = words.tag;
  root.dir = words.dir;
  const fields = shapedMessage(message) ?? {};
  const text = typeof fields.message === 'string' ? fields.message : '';
  const value = decoded.value ?? {};
  if (kind === 'system_message') {
    root.append(make('span', 'deskkit-system', '⚙ '), make('span', null, text, 'auto'), ' ',
      make('span', 'deskkit-facts', systemFacts(value, words).join(' · ')));
    return root;
  }
  if (kind === 'notification') {
    root.append(make('div', 'deskkit-notice', text, 'auto'));
    return root;
  }
  const bubble = make('div', 'deskkit-bubble', undefined, 'auto');
  bubble.append(dk.renderText(text, { document: d, linkOptions: o.linkOptions, emailLinks: o.emailLinks }));
  root.append(bubble);
  const answer = (detail, controls) => {
    controls.forEach((c) => (c.disabled = true));
    root.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true,
      detail: { kind, messageId: decoded.messageId, ticketId: value.ticketId ?? null, ...detail } }));
  };
  if (kind === 'closure_inquiry') {
    const state = make('div', 'deskkit-inquiry');
    const said = { CONFIRMED: 'inquiry.confirmed', DECLINED: 'inquiry.declined' }[value.state];
    if (value.state === 'WAITING' && audience === 'customer') {
      const buttons = [['yes', 'inquiry.close'], ['no', 'inquiry.keepOpen']].map(([reply, key]) => {
        const b = make('button', 'deskkit-answer', words.text(key));
        b.type = 'button';
        b.ariaPressed = 'false';
        b.addEventListener('click', () => {
          b.ariaPressed = 'true';
          answer({ answer: reply }, buttons);
        });
        return b;
      });
      state.append(...buttons);
    } else {
      state.append(make('span', 'deskkit-state', value.state === 'WAITING' ? words.text('inquiry.waiting')
        : said ? words.text(said) : String(value.state ?? '')));
    }
    root.append(state);
  } else if (kind === 'customer_satisfaction') {
    root.append(value.state === 'WAITING'
      ? audience === 'customer' ? survey(make, words, answer) : make('span', 'deskkit-state', words.text('csat.waiting'))
      : rating(make, words, value));
  } else if (kind === 'bot_answers') {
    const list = make('ul', 'deskkit-faq');
    for (const result of value.results ?? []) {
      const item = make('li', null, undefined, 'auto');
      const href = typeof result.url === 'string' ? dk.safeURL(result.url) : null;
      const question = make(href ? 'a' : 'span', null, result.question ?? (href ? result.url : ''));
      if (href) setLink(question, href);
      item.append(question);
      if (result.answer) item.append(make('span', 'deskkit-faq-answer', result.answer));
      list.append(item);
    }
    root.append(list);
  } else if (kind === 'unknown' || kind === 'malformed') {
    root.append(make('div', 'deskkit-note', kind === 'unknown'
      ? words.text('note.otherPayload', { type: value.type ?? words.text('note.noType') })
      : words.text('note.malformed', { reason: decoded.error?.message ?? '' }), 'auto'));
  }
  const card = kind === 'url_preview' || fields.og_tag
    ? dk.renderPreview(kind === 'url_preview' ? decoded : message, { document: d, imageURL: o.imageURL,
      maxTitle: o.maxTitle, maxDescription: o.maxDescription, imageLabel: words.text('card.image') })
    : null;
  if (card) root.append(card);
  return root;
}

/** The survey waiting for the customer: five choices in a radio group, a comment, a submit button. */
function survey(make, words, answer) {
  const box = make('div', 'deskkit-survey');
  const group = make('fieldset', 'deskkit-stars');
  group.append(make('legend', null, words.text('csat.rating')));
  const name = `deskkit-rating-${++surveys}`;
  for (let score = 1; score <= 5; score++) {
    const label = make('label');
    const input = make('input');
    Object.assign(input, { type: 'radio', name, value: String(score) });
    input.setAttribute('aria-label', words.count('rating.stars', score));
    const star = make('span', null, '★');
    star.setAttribute('aria-hidden', 'true');
    label.append(input, star);
    group.append(label);
  }
  const score = () => Number(group.querySelector('input:checked')?.value ?? 0);
  group.addEventListener('change', () => (submit.disabled = !score()));
  const comment = make('label', 'deskkit-comment');
  const area = make('textarea');
  area.rows = 2;
  comment.append(make('span', null, words.text('csat.comment')), area);
  const submit = make('button', 'deskkit-submit', words.text('csat.submit'));
  submit.type = 'button';
  submit.disabled = true;
  box.append(group, comment, submit);
  submit.addEventListener('click', () => {
    if (score()) answer({ answer: { score: score(), comment: area.value.trim() || null } }, [group, area, submit]);
  });
  return box;
}

/** An answered survey: the stars (one image, named by its score) and the comment. */
function rating(make, words, value) {
  const score = Math.min(5, Math.max(0, Number.isInteger(value.score) ? value.score : 0));
  const box = make('div', 'deskkit-rating');
  const stars = make('span', 'deskkit-rated', '★'.repeat(score) + '☆'.repeat(5 - score));
  stars.setAttribute('role', 'img');
  stars.setAttribute('aria-label', words.count('rating.stars', score));
  box.append(stars);
  if (value.comment) box.append(make('q', null, value.comment, 'auto'));
  return box;
}

/** What a system message says about its ticket, as ConversationPage.facts says it. */
function systemFacts(value, words) {
  const facts = [value.type];
  const ticket = value.ticket;
  if (ticket) {
    facts.push(words.text('facts.ticket', { id: ticket.id ?? '?' }));
    const status = ticket.status2 ?? ticket.status;
    if (status) facts.push(status);
    const agent = ticket.recentAssignment?.agent?.displayName;
    if (agent) facts.push(words.text('facts.agent', { name: agent }));
  }
  return facts;
}
