// Every Desk message as the element a widget shows (renderMessage), with the closure inquiry and the satisfaction
// survey answered by the customer as DOM events the widget hands to the Desk SDK. The words are DeskKitCards'
// strings tables (strings.mjs), the same as ConversationPage's; nothing from a message is parsed as markup.
import { TABLES } from './strings.mjs';
import { shapedMessage } from './message.mjs';

/** The event an answer dispatches (bubbling, composed): `detail` is `{ kind, messageId, ticketId, answer }`. */
export const ANSWER_EVENT = 'deskkit-answer';
let forms = 0;

/** The table for `tag` (`ar`, `zh-CN`, `pt-BR`): as written, then by language (Chinese is Simplified), else English. */
function table(tag) {
  const wanted = String(tag ?? 'en').toLowerCase();
  for (const key of Object.keys(TABLES)) if (key.toLowerCase() === wanted) return key;
  const language = wanted.split('-')[0];
  if (language === 'zh') return /hant|tw|hk|mo/.test(wanted) ? 'en' : 'zh-Hans';
  return Object.keys(TABLES).find((key) => key === language) ?? 'en';
}

/** The interface's words in one language: `text(key, values)` and `count(key, n)` (the CLDR plural form). */
export function interfaceWords(tag) {
  const t = table(tag);
  const { dir, strings } = TABLES[t];
  const fill = (s, values) => s.replace(/\{(\w+)\}/g, (m, name) => (name in values ? values[name] : m));
  const plurals = new Intl.PluralRules(t);
  const numbers = new Intl.NumberFormat(t, { numberingSystem: 'latn' });  // as ConversationPage writes them
  return {
    tag: t, dir,
    text: (key, values = {}) => fill(typeof strings[key] === 'string' ? strings[key] : strings[key].other, values),
    count: (key, n, values = {}) => {
      const forms = strings[key];
      return fill(forms[plurals.select(n)] ?? forms.other, { ...values, count: numbers.format(n) });
    },
  };
}

/**
 * The element a widget shows for `message` (any shape `decodeMessage` takes), or null for what `audience` does not
 * see (`render.mjs`' options, and `audience` 'customer' or 'agent', `language` a BCP 47 tag of the interface).
 */
export function renderMessage(dk, o, message, audience, words) {
  const decoded = dk.decodeMessage(message);
  const kind = decoded.kind;
  if (audience === 'customer' && (!decoded.visibleToCustomer || kind === 'unknown' || kind === 'malformed')) return null;
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
  root.setAttribute('lang', words.tag);
  root.setAttribute('dir', words.dir);
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
    for (const c of controls) c.disabled = true;
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
        b.setAttribute('aria-pressed', 'false');
        b.addEventListener('click', () => {
          b.setAttribute('aria-pressed', 'true');
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
      if (href) for (const [k, v] of [['href', href], ['rel', 'noopener noreferrer nofollow'], ['target', '_blank']]) question.setAttribute(k, v);
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
  const form = make('form', 'deskkit-survey');
  const group = make('fieldset', 'deskkit-stars');
  group.append(make('legend', null, words.text('csat.rating')));
  const name = `deskkit-rating-${++forms}`;
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
  group.addEventListener('change', () => {
    group.dataset.score = form.elements[name].value;
    submit.disabled = false;
  });
  const comment = make('label', 'deskkit-comment');
  const area = make('textarea');
  area.rows = 2;
  comment.append(make('span', null, words.text('csat.comment')), area);
  const submit = make('button', 'deskkit-submit', words.text('csat.submit'));
  submit.type = 'submit';
  submit.disabled = true;
  form.append(group, comment, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const score = Number(form.elements[name].value);
    if (!score || submit.disabled) return;
    answer({ answer: { score, comment: area.value.trim() || null } }, [group, area, submit]);
  });
  return form;
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
