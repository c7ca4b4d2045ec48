// renderMessage in headless Chromium, driven over the DevTools protocol as a person with a keyboard and a screen
// reader would: the conversation of test/pages/conversation.jsonl (every kind of Desk message) rendered for the
// customer and the agent in the eight interface languages and compared, message by message, with what
// ConversationPage (`deskkit decode --messages FILE --html -`) shows; the accessibility tree
// (Accessibility.getFullAXTree) names every control in the interface's language; Tab, arrows, Enter and Space
// answer the closure inquiry and the survey, which dispatch `deskkit-answer` and disable the controls; and every
// text's colour is WCAG AA on its background in the light and the dark scheme. Skipped where no Chromium is
// installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { chromium, openBrowser } from './support/cdp.mjs';
import { root, run } from './support/corpus.mjs';

const skip = !chromium && 'no Chromium';
const web = join(root, 'Web');
const conversation = join(web, 'test/pages/conversation.jsonl');
const LANGUAGES = ['en', 'zh-Hans', 'ru', 'ja', 'ko', 'es', 'de', 'ar'];
const types = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.jsonl': 'application/json' };

/** A server of Web/ on 127.0.0.1, with ConversationPage's page in `language` at /swift.html. */
async function serve() {
  let swift = '';
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path === '/swift.html') return response.writeHead(200, { 'content-type': types['.html'] }).end(swift);
    try {
      const body = await readFile(join(web, path));
      response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (query) => `http://127.0.0.1:${server.address().port}/test/pages/widget.html?${query}`,
    pageIn(language) {
      swift = run(['decode', '--messages', conversation, '--html', '-', '--lang', language]).join('\n');
    },
    close: () => server.close(),
  };
}

test('every message says in every language what ConversationPage says, to the customer and to the agent', { skip }, async () => {
  const server = await serve();
  const browser = await openBrowser();
  try {
    for (const language of LANGUAGES) {
      server.pageIn(language);
      for (const audience of ['customer', 'agent']) {
        await browser.open(server.url(`compare&lang=${language}&audience=${audience}`));
        await browser.until('the conversation', 'document.body.dataset.ready');
        const report = await browser.evaluate('window.report');
        assert.deepEqual(report.shown, report.swift, `${language}, ${audience}: the same messages shown`);
        assert.equal(report.shown.length, audience === 'customer' ? 9 : 12);
        assert.deepEqual(report.differences, [], `${language}, ${audience}`);
        assert.equal(await browser.evaluate('document.querySelector(".deskkit-message").dir'), language === 'ar' ? 'rtl' : 'ltr');
      }
    }
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});

/** The page's accessibility tree: its nodes that are not ignored, as `{ role, name, properties }`. */
async function accessibilityTree(browser) {
  const { nodes } = await browser.call('Accessibility.getFullAXTree');
  return nodes.filter((n) => !n.ignored).map((n) => ({
    role: n.role?.value, name: n.name?.value ?? '',
    properties: Object.fromEntries((n.properties ?? []).map((p) => [p.name, p.value.value])),
  }));
}

/** Presses `key` (Tab, Enter, ' ', ArrowRight) as a keyboard does. */
async function press(browser, key, modifiers = 0) {
  const codes = { Tab: 9, Enter: 13, ' ': 32, ArrowRight: 39, ArrowLeft: 37 };
  const base = { key, code: key === ' ' ? 'Space' : key, windowsVirtualKeyCode: codes[key], modifiers };
  await browser.call('Input.dispatchKeyEvent', { type: 'keyDown', ...base, ...(key === 'Enter' || key === ' ' ? { text: key === 'Enter' ? '\r' : ' ' } : {}) });
  await browser.call('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

/** Tabs forward until the focused element is the one `selector` finds (at most 40 presses). */
async function tabTo(browser, selector) {
  for (let i = 0; i < 40; i++) {
    if (await browser.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`)) return;
    await press(browser, 'Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('by keyboard and screen reader: the inquiry and the survey answered, their controls named, disabled once answered', { skip }, async () => {
  const server = await serve();
  const browser = await openBrowser();
  try {
    for (const language of ['en', 'ar']) {
      await browser.open(server.url(`lang=${language}&audience=customer`));
      await browser.until('the conversation', 'document.body.dataset.ready');
      const strings = (await import('../strings.mjs')).TABLES[language].strings;
      const stars = (n) => new Intl.PluralRules(language).select(n);
      let tree = await accessibilityTree(browser);
      const named = (role, name) => tree.find((n) => n.role === role && n.name === name);
      for (const key of ['inquiry.close', 'inquiry.keepOpen']) {
        assert.deepEqual(named('button', strings[key])?.properties.pressed, 'false', `${language}: ${key}`);
      }
      assert.ok(named('group', strings['csat.rating']), `${language}: the rating group is named`);
      for (let n = 1; n <= 5; n++) {
        const name = (strings['rating.stars'][stars(n)] ?? strings['rating.stars'].other).replace('{count}', String(n));
        assert.equal(named('radio', name)?.properties.checked, 'false', `${language}: ${name}`);
      }
      assert.ok(named('textbox', strings['csat.comment']), 'the comment is named');
      assert.equal(named('button', strings['csat.submit'])?.properties.disabled, true, 'no submit before a rating');
      assert.ok(tree.some((n) => n.role === 'image' && n.name.length > 0), 'the answered rating is one named image');

      // The closure inquiry: Tab to its first button, Enter.
      await tabTo(browser, '.deskkit-answer');
      await press(browser, 'Enter');
      // The survey: Tab to its first choice, arrows to the fourth (right to left in Arabic), Tab to the comment,
      // type, Tab to submit, Space.
      await tabTo(browser, '.deskkit-stars input');
      for (let i = 0; i < 3; i++) await press(browser, language === 'ar' ? 'ArrowLeft' : 'ArrowRight');
      await press(browser, ' ');
      await tabTo(browser, '.deskkit-comment textarea');
      await browser.call('Input.insertText', { text: 'Fast, thanks' });
      await tabTo(browser, '.deskkit-submit');
      await press(browser, ' ');
      const answers = await browser.evaluate('window.answers');
      assert.deepEqual(answers, [
        { kind: 'closure_inquiry', messageId: 8, ticketId: 4021, answer: 'yes' },
        { kind: 'customer_satisfaction', messageId: 10, ticketId: 4021, answer: { score: 4, comment: 'Fast, thanks' } },
      ], language);
      tree = await accessibilityTree(browser);
      assert.equal(named('button', strings['inquiry.close'])?.properties.pressed, 'true');
      assert.equal(named('button', strings['inquiry.close'])?.properties.disabled, true);
      assert.equal(named('button', strings['inquiry.keepOpen'])?.properties.disabled, true);
      assert.equal(named('button', strings['csat.submit'])?.properties.disabled, true);
      assert.ok(tree.filter((n) => n.role === 'radio').every((n) => n.properties.disabled === true), 'the choices are disabled');
    }
    // A visible focus, reached by keyboard: a button's outline, and a hidden radio's on its star.
    await browser.open(server.url('lang=en&audience=customer'));
    await browser.until('the conversation', 'document.body.dataset.ready');
    const outline = (selector) => browser.evaluate(`(() => { const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
      return s.outlineStyle + ' ' + s.outlineWidth; })()`);
    await tabTo(browser, '.deskkit-answer');
    assert.equal(await outline('.deskkit-answer'), 'solid 2px');
    await tabTo(browser, '.deskkit-stars input');
    assert.equal(await outline('.deskkit-stars input:focus-visible + span'), 'solid 2px');
    await browser.evaluate('document.activeElement.blur()');
    assert.match(await outline('.deskkit-answer'), /^none /, 'no outline without focus');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});

/** In the page: every element with text (or a control) in the conversation whose colour on its background is under
 * WCAG AA (4.5:1; 3:1 for large text and for controls' borders), with the ratio. */
const CONTRAST = `(() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const background = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const low = [];
  let checked = 0;
  for (const e of document.querySelectorAll('#conversation *')) {
    const style = getComputedStyle(e);
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || style.visibility === 'hidden' || style.opacity === '0') continue;
    checked++;
    const r = ratio(rgb(style.color).slice(0, 3), background(e));
    const large = parseFloat(style.fontSize) >= 18.66 && style.fontWeight >= 700 || parseFloat(style.fontSize) >= 24;
    if (r < (large ? 3 : 4.5)) low.push(e.className + ' ' + e.textContent.slice(0, 20) + ' ' + r.toFixed(2));
  }
  return { checked, low };
})()`;

test('every text of the widget is WCAG AA in the light and the dark scheme', { skip }, async () => {
  const server = await serve();
  // Dark as the system asks (prefers-color-scheme) and as a page says (a [data-theme="dark"] ancestor).
  for (const [dark, theme] of [[false, ''], [true, ''], [false, '&theme=dark']]) {
    const browser = await openBrowser({ dark });
    try {
      for (const audience of ['customer', 'agent']) {
        await browser.open(server.url(`audience=${audience}${theme}`));
        await browser.until('the conversation', 'document.body.dataset.ready');
        const { checked, low } = await browser.evaluate(CONTRAST);
        assert.ok(checked > 20, `${checked} texts checked`);
        assert.deepEqual(low, [], `${dark ? 'dark' : theme ? 'data-theme dark' : 'light'}, ${audience}: under AA`);
      }
    } finally {
      await browser.close();
    }
  }
  server.close();
});
