// The operator's console of `deskkit serve`: the queue, the links that got no card, and why a link got the card
// it got. It reads the server's API (relative paths: /v1/…) with the key the operator enters, kept in this tab's
// session storage only. Everything a page, a payload or an error controls is shown as text (textContent), never
// parsed as markup; the card is drawn by the web package's renderPreview from the server's LinkCard.
import { renderPreview } from './render.mjs';

const KEY = 'deskkit-console-key';
const REFRESH_MS = 5000;
const $ = (id) => document.getElementById(id);
const PAGES = ['queue', 'refusals', 'inspect'];
let page = null;
let jobsBefore = null;
/** Older pages of jobs are on screen: the live refresh leaves the list alone (the counts and chart go on). */
let olderShown = false;
let renders = 0;

/** An element `name` with `className` and, when given, `text` as its text. */
function el(name, className, text) {
  const e = document.createElement(name);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function row(cells) {
  const tr = el('tr');
  for (const cell of cells) {
    if (cell instanceof Node) {
      const td = el('td');
      td.append(cell);
      tr.append(td);
    } else if (cell && typeof cell === 'object') {
      tr.append(el('td', cell.className, cell.text));
    } else {
      tr.append(el('td', null, cell ?? '—'));
    }
  }
  return tr;
}

/** Gives each cell of `table`'s body its column's name (`data-label`), which a phone shows beside it. */
function labelled(table) {
  const names = [...table.tHead.rows[0].cells].map((th) => th.textContent);
  for (const tr of table.tBodies[0].rows) {
    [...tr.cells].forEach((td, i) => { td.dataset.label = names[i] ?? ''; });
  }
}

function say(text, bad = false) {
  const status = $('status');
  status.textContent = text ?? '';
  status.className = bad ? 'bad' : '';
}

/** A problem's words: the API answers `{"error": "…"}` or `{"error": {"kind", "detail"}}`. */
function problem(body, status) {
  const error = body?.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') return `${error.kind}: ${error.detail}`;
  return `HTTP ${status}`;
}

class Refused extends Error {}

async function api(path, { method = 'GET' } = {}) {
  const key = sessionStorage.getItem(KEY);
  if (!key) throw new Refused('no key');
  const response = await fetch(path, {
    method, cache: 'no-store', credentials: 'omit', headers: { authorization: `Bearer ${key}` },
  });
  const body = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) {
    signOut(`The server refused the key: ${problem(body, response.status)}`);
    throw new Refused('key refused');
  }
  if (!response.ok) throw new Error(problem(body, response.status));
  return body;
}

function signOut(message) {
  sessionStorage.removeItem(KEY);
  show();
  say(message, Boolean(message));
}

function currentRoute() {
  const hash = location.hash.slice(1);
  const [name, query] = hash.split('?');
  return { name: PAGES.includes(name) ? name : 'queue', query: new URLSearchParams(query ?? '') };
}

/** Shows the key form without a key, else the page the address names. */
function show() {
  const signedIn = Boolean(sessionStorage.getItem(KEY));
  $('key-page').hidden = signedIn;
  $('nav').hidden = !signedIn;
  $('sign-out').hidden = !signedIn;
  const route = currentRoute();
  page = signedIn ? route.name : null;
  for (const name of PAGES) $(`${name}-page`).hidden = page !== name;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!signedIn) {
    $('key').focus();
    return;
  }
  if (page === 'queue') {
    jobsBefore = null;
    olderShown = false;
    refresh();
  } else if (page === 'refusals') {
    refresh();
  } else if (page === 'inspect') {
    const url = route.query.get('url');
    const message = route.query.get('message_id');
    if (message) {
      inspect({ message_id: message, link: route.query.get('link') ?? '0' });
    } else if (url) {
      $('inspect-url').value = url;
      inspect({ url });
    }
  }
}

async function refresh() {
  try {
    if (page === 'queue') await drawQueue();
    else if (page === 'refusals') await drawRefusals();
    else return;
    say('');
  } catch (error) {
    if (!(error instanceof Refused)) say(`Cannot read the server: ${error.message}`, true);
  }
}

function rendered() {
  renders += 1;
  document.body.dataset.renders = String(renders);
}

// The queue.

async function drawQueue() {
  const state = $('state').value;
  const query = new URLSearchParams({ limit: '50' });
  if (state) query.set('state', state);
  const [summary, list] = await Promise.all([api('v1/queue'), olderShown ? null : api(`v1/jobs?${query}`)]);
  const counts = $('counts');
  counts.replaceChildren();
  for (const name of ['queued', 'running', 'done', 'failed']) {
    const box = el('div', `count ${name}`);
    box.dataset.state = name;
    box.append(el('b', null, summary.counts ? summary.counts[name] : '?'), el('span', null, name));
    counts.append(box);
  }
  if (summary.store_error) say(`The job store: ${summary.store_error}`, true);
  drawChart(summary.last_hour);
  if (list) {
    $('jobs').tBodies[0].replaceChildren(...list.jobs.map(jobRow));
    labelled($('jobs'));
    $('jobs-empty').hidden = list.jobs.length > 0;
    jobsBefore = list.next;
    $('jobs-more').hidden = !list.next;
  }
  $('retry-all').disabled = !summary.counts || summary.counts.failed === 0;
  rendered();
}

function jobRow(job) {
  const message = el('div');
  message.append(el('div', 'mono', job.message_id), el('div', 'muted', job.channel_url));
  if (job.trace_id) message.append(el('div', 'muted mono', `trace ${job.trace_id}`));
  const links = el('div');
  for (const [i, link] of job.links.entries()) {
    // The list shows the link masked; the inspector fetches it whole from its job.
    const button = el('button', null, 'Inspect');
    button.type = 'button';
    button.addEventListener('click', () => { location.hash = `#inspect?message_id=${job.message_id}&link=${i}`; });
    const line = el('div', 'url');
    line.append(el('span', 'mono', link), ' ', button);
    links.append(line);
  }
  let action = el('span');
  if (job.state === 'failed') {
    action = el('button', null, 'Retry');
    action.type = 'button';
    action.dataset.retry = String(job.message_id);
    action.addEventListener('click', async () => {
      action.disabled = true;
      try {
        const answer = await api(`v1/jobs/${encodeURIComponent(job.message_id)}/retry`, { method: 'POST' });
        say(`Message ${job.message_id}: ${answer.retried} job queued again.`);
        olderShown = false;
        await drawQueue();
      } catch (error) {
        if (!(error instanceof Refused)) say(`Retry of ${job.message_id}: ${error.message}`, true);
        action.disabled = false;
      }
    });
  }
  const tr = row([message, job.state, job.attempts, { className: 'error', text: job.last_error ?? '' },
    job.state === 'queued' ? new Date(job.next_attempt_at).toLocaleTimeString() : '—', links, action]);
  tr.dataset.messageId = String(job.message_id);
  tr.dataset.state = job.state;
  return tr;
}

async function moreJobs() {
  if (!jobsBefore) return;
  const state = $('state').value;
  const query = new URLSearchParams({ limit: '50', before: jobsBefore });
  if (state) query.set('state', state);
  try {
    const list = await api(`v1/jobs?${query}`);
    $('jobs').tBodies[0].append(...list.jobs.map(jobRow));
    labelled($('jobs'));
    olderShown = true;
    jobsBefore = list.next;
    $('jobs-more').hidden = !list.next;
  } catch (error) {
    if (!(error instanceof Refused)) say(`Cannot read the jobs: ${error.message}`, true);
  }
}

const SVG = 'http://www.w3.org/2000/svg';

/** A bar a minute (admitted, enriched and errors side by side), scaled to the busiest minute. */
function drawChart(minutes) {
  const width = 600;
  const height = 120;
  const most = Math.max(1, ...minutes.flatMap((m) => [m.admitted, m.enriched, m.errors]));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  const total = minutes.reduce((sum, m) => sum + m.admitted, 0);
  svg.setAttribute('aria-label', `${total} admitted in the last hour`);
  const slot = width / minutes.length;
  minutes.forEach((minute, i) => {
    ['admitted', 'enriched', 'errors'].forEach((name, j) => {
      const value = minute[name];
      if (!value) return;
      const h = Math.max(1, (value / most) * (height - 4));
      const bar = document.createElementNS(SVG, 'rect');
      bar.setAttribute('class', name);
      bar.setAttribute('x', String(i * slot + j * (slot / 3)));
      bar.setAttribute('width', String(Math.max(1, slot / 3 - 0.5)));
      bar.setAttribute('y', String(height - h));
      bar.setAttribute('height', String(h));
      const title = document.createElementNS(SVG, 'title');
      title.textContent = `${new Date(minute.minute).toLocaleTimeString()}: ${value} ${name}`;
      bar.append(title);
      svg.append(bar);
    });
  });
  $('chart').replaceChildren(svg);
}

// The links that got no card.

async function drawRefusals() {
  const answer = await api('v1/refusals');
  for (const [id, counts] of [['refusals-hour', answer.last_hour], ['refusals-day', answer.last_day]]) {
    const entries = Object.entries(counts);
    $(id).tBodies[0].replaceChildren(...(entries.length ? entries.map(([kind, n]) => row([kind, n])) : [row(['none', 0])]));
  }
  const list = $('refusals-recent');
  list.replaceChildren(...answer.recent.map((example) => {
    const li = el('li');
    li.dataset.kind = example.error.kind;
    const what = example.error.provider ? `${example.error.kind} (${example.error.provider})` : example.error.kind;
    li.append(
      el('span', 'what', what),
      el('span', 'url mono', example.url),
      el('span', 'detail muted', example.error.detail),
      el('span', 'muted', `${new Date(example.at).toLocaleString()} · message ${example.message_id ?? '—'} · ${example.channel_url ?? ''}`));
    if (example.message_id !== null && example.link !== null) {
      const button = el('button', null, 'Inspect');
      button.type = 'button';
      button.addEventListener('click', () => {
        location.hash = `#inspect?message_id=${example.message_id}&link=${example.link}`;
      });
      li.append(button);
    }
    return li;
  }));
  $('refusals-empty').hidden = answer.recent.length > 0;
  rendered();
}

// The inspector.

/** The name the explanation's `origins` give the tag `key` of `source`. */
function originName(source, key) {
  if (source === 'document') return { title: '<title>', description: 'meta description', h1: '<h1>' }[key] ?? key;
  if (source === 'json_ld') return `json-ld ${key}`;
  if (source === 'itemprop') return `itemprop ${key}`;
  if (source === 'oembed') return `oembed ${key}`;
  return key;
}

/** Inspects a link — `{ url }` typed, or `{ message_id, link }` of a job — and draws the answer; `done` is said once
 * it is drawn. */
async function inspect(what, done = '') {
  const box = $('inspection');
  const button = $('inspect-form').querySelector('button');
  button.disabled = true;
  const named = what.url ?? `message ${what.message_id}'s link ${Number(what.link) + 1}`;
  say(`Fetching ${named} …`);
  try {
    const answer = await api(`v1/inspect?${new URLSearchParams(what)}`);
    if (what.message_id) $('inspect-url').value = answer.url;
    drawInspection(answer);
    $('forget').dataset.what = new URLSearchParams(what).toString();
    box.hidden = false;
    say(done);
  } catch (error) {
    if (!(error instanceof Refused)) say(`Cannot inspect ${named}: ${error.message}`, true);
  } finally {
    button.disabled = false;
  }
}

function drawInspection(answer) {
  const verdict = $('verdict');
  if (answer.refusal) {
    const who = answer.refusal.provider ? ` (${answer.refusal.provider})` : '';
    verdict.textContent = `No card: ${answer.refusal.kind}${who}`;
    verdict.className = 'verdict bad';
  } else {
    verdict.textContent = 'A card';
    verdict.className = 'verdict good';
  }
  verdict.dataset.kind = answer.refusal ? answer.refusal.kind : 'card';
  const cached = answer.cache.answer;
  $('cache').textContent = !answer.cache.held
    ? `Fetched again in ${answer.milliseconds} ms. The cache holds nothing for this link: the next message fetches it.`
    : cached.error
      ? `Fetched again in ${answer.milliseconds} ms. The cache holds a failure for it (${cached.error.kind}: ${cached.error.detail}): messages get no card until it expires or is forgotten.`
      : `Fetched again in ${answer.milliseconds} ms. The cache holds a card for it: messages get that one until it expires or is forgotten.`;
  $('forget').dataset.url = answer.url;

  // The card as a widget draws it, from the server's LinkCard. Its image shows through the server's image proxy;
  // without the proxy it is left out here: the console loads nothing from another site.
  const view = $('card-view');
  const dk = { linkCard: () => answer.link_card, safeURL: (u) => u };
  const sameOrigin = (u) => (new URL(u, location.href).origin === location.origin ? u : null);
  const card = answer.link_card ? renderPreview(dk, answer.card ?? {}, { imageURL: sameOrigin }) : null;
  view.replaceChildren(card ?? el('p', 'muted', 'No card is shown.'));
  if (card && answer.link_card.image && !sameOrigin(answer.link_card.image.url)) {
    view.append(el('p', 'muted', 'The image is not loaded here (no image proxy): the console loads nothing from other sites.'));
  }

  const fields = $('fields');
  fields.replaceChildren();
  $('fields-box').hidden = !answer.card;
  const body = answer.card?.body ?? {};
  for (const [key, label] of [['title', 'Title'], ['description', 'Description'], ['image', 'Image'], ['site_name', 'Site']]) {
    if (!body[key]) continue;
    fields.append(el('dt', null, label));
    const dd = el('dd');
    dd.append(el('span', key === 'image' ? 'mono' : null, body[key]));
    if (answer.origins[key]) dd.append(el('span', 'muted', ` ← ${answer.origins[key]}`));
    fields.append(dd);
  }
  if (answer.image?.dropped) fields.append(el('dt', null, 'Image left off'), el('dd', 'refused', answer.image.dropped));
  if (answer.image?.type) fields.append(el('dt', null, 'Image probe'), el('dd', null, `${answer.image.type} ${answer.image.width}×${answer.image.height}`));
  if (answer.image?.probe_error) fields.append(el('dt', null, 'Image probe failed'), el('dd', null, answer.image.probe_error));

  $('reasons-box').hidden = !answer.refusal;
  $('reasons').textContent = answer.refusal ? answer.refusal.detail : '';
  const signals = $('signals');
  signals.replaceChildren();
  if (answer.refusal && answer.signals) {
    for (const [key, value] of Object.entries(answer.signals)) {
      const shown = Array.isArray(value) ? value.join(', ') : String(value ?? '');
      if (shown === '' || shown === '0' || shown === 'false') continue;
      signals.append(el('dt', null, key.replaceAll('_', ' ')), el('dd', 'mono', shown));
    }
  }

  // The made-up address asked beside a deep link's page, and what its answer shares with the link's.
  const probe = answer.site_probe;
  $('probe-box').hidden = !probe;
  if (probe) {
    const what = probe.same
      ? `the same page as the link's (${probe.shared.join(', ')}): it says nothing about the link`
      : `another page than the link's${probe.shared.length ? ` (the same ${probe.shared.join(', ')})` : ''}`;
    $('probe').textContent = `${probe.url} → ${probe.status}${probe.title ? ` “${probe.title}”` : ''}: ${what}.`;
  }

  $('hops').tBodies[0].replaceChildren(...answer.hops.map((hop, i) => {
    const verdicts = el('div');
    const policy = hop.site_policy.verdict === 'refused';
    verdicts.append(el('div', policy ? 'refused' : 'allowed', policy ? `site policy: refused (${hop.site_policy.detail})` : 'site policy: allowed'));
    const address = hop.address.verdict;
    verdicts.append(el('div', address === 'refused' ? 'refused' : address === 'allowed' ? 'allowed' : 'muted',
      address === 'allowed' ? `address ${hop.address.ip}: allowed`
        : address === 'refused' ? `address: refused (${hop.address.detail})` : 'address: not reached'));
    const result = el('div');
    if (hop.status !== null) result.append(el('div', null, `${hop.status}${hop.content_type ? ` ${hop.content_type}` : ''}`));
    if (hop.redirect_to) result.append(el('div', 'muted', `→ ${hop.redirect_to}`));
    if (hop.error) result.append(el('div', 'refused', hop.error));
    const charset = hop.charset.decided
      ? `${hop.charset.decided} (${hop.charset.source}${hop.charset.declared ? `; declared ${hop.charset.declared}` : ''})` : '—';
    return row([i + 1, hop.purpose, { className: 'url mono', text: hop.url }, verdicts, result, charset,
      hop.bytes ?? '—', hop.milliseconds ?? '—']);
  }));

  const won = (source, tag) => ['title', 'description', 'image', 'site_name'].filter((field) =>
    answer.origins[field] === originName(source, tag.key) && (field === 'image' || body[field] === tag.value));
  const rows = [];
  for (const [source, list] of Object.entries(answer.tags ?? {})) {
    if (!Array.isArray(list)) continue;
    for (const tag of list) {
      const fieldsWon = won(source, tag);
      const tr = row([source, { className: 'mono', text: tag.key }, { className: 'value', text: tag.value },
        fieldsWon.join(', ')]);
      if (fieldsWon.length) tr.className = 'won';
      rows.push(tr);
    }
  }
  if (answer.tags?.oembed_link) rows.push(row(['oembed', 'link', { className: 'value', text: answer.tags.oembed_link }, '']));
  $('tags').tBodies[0].replaceChildren(...rows);
  labelled($('hops'));
  labelled($('tags'));
  rendered();
}

// Wiring.

$('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = $('key').value.trim();
  if (!key) return;
  sessionStorage.setItem(KEY, key);
  $('key').value = '';
  try {
    await api('v1/queue');
    say('');
    show();
  } catch (error) {
    if (!(error instanceof Refused)) say(`Cannot read the server: ${error.message}`, true);
  }
});
$('sign-out').addEventListener('click', () => signOut(''));
$('state').addEventListener('change', () => { jobsBefore = null; olderShown = false; refresh(); });
$('jobs-more').addEventListener('click', moreJobs);
$('retry-all').addEventListener('click', async () => {
  $('retry-all').disabled = true;
  try {
    const answer = await api('v1/jobs/retry', { method: 'POST' });
    say(`${answer.retried} failed job${answer.retried === 1 ? '' : 's'} queued again${answer.more ? ' (there are more: retry again)' : ''}.`);
    olderShown = false;
    await drawQueue();
  } catch (error) {
    if (!(error instanceof Refused)) say(`Retry: ${error.message}`, true);
  }
});
$('inspect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const url = $('inspect-url').value.trim();
  if (!url) return;
  const hash = `#inspect?url=${encodeURIComponent(url)}`;
  if (location.hash === hash) inspect({ url });
  else location.hash = hash;
});
$('forget').addEventListener('click', async () => {
  const url = $('forget').dataset.url;
  try {
    const answer = await api(`v1/previews?url=${encodeURIComponent(url)}`, { method: 'DELETE' });
    await inspect(Object.fromEntries(new URLSearchParams($('forget').dataset.what)), `Forgotten: ${answer.memory} cached here${answer.shared === null ? '' : `, ${answer.shared} shared`}; the next message fetches it again.`);
  } catch (error) {
    if (!(error instanceof Refused)) say(`Cannot forget ${url}: ${error.message}`, true);
  }
});
window.addEventListener('hashchange', show);
setInterval(() => { if (document.visibilityState === 'visible') refresh(); }, REFRESH_MS);
show();
document.body.dataset.ready = 'true';
