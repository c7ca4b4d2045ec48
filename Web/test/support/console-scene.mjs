// A `deskkit serve` on loopback with everything it talks to: pages behind links (a good one, a login wall, one
// whose title and texts carry markup and handlers), and a Platform API that refuses the updates of the messages
// it is told to (its error text, `apiError`, carrying markup too) until told otherwise. For the console's browser tests and
// its screenshots (Scripts/screenshot-console.sh). DESKKIT names the binary (default .build/debug/deskkit).
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { png } from './chromium.mjs';

/** The operator's key the console is opened with; the client key a chat backend would hold is another. */
export const KEY = 'console-test-key-0123456789';
export const CLIENT_KEY = 'console-test-client-key-0123456789';
const TOKEN = 'console-test-api-token';
/** What a page's title and the Platform API's error say to try to run in the console. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port };
}

export async function startScene() {
  const image = await png(1200, 630);
  const pages = await listen((request, response) => {
    const base = `http://127.0.0.1:${pages.port}`;
    const html = (body) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    switch (request.url) {
      case '/guide':
        return html(`<!doctype html><html><head><title>Returns guide — Example Shop</title>
<meta property="og:title" content="How to return an order">
<meta property="og:description" content="Print the label, pack the parcel and drop it at any post office within 30 days.">
<meta property="og:image" content="${base}/guide.png"><meta property="og:site_name" content="Example Shop">
<meta name="twitter:title" content="Returns, step by step"></head>
<body><h1>Returns</h1><p>Print the label.</p></body></html>`);
      case '/guide.png':
        return response.writeHead(200, { 'content-type': 'image/png' }).end(image);
      case '/account':
        return html(`<!doctype html><html><head><title>Sign in · Example Shop</title></head><body>
<form action="/session" method="post"><label>E-mail <input name="login" type="email"></label>
<label>Password <input name="password" type="password"></label><button>Sign in</button></form></body></html>`);
      case '/hostile':
        return html(`<!doctype html><html><head><title>Sign in ${HOSTILE}</title>
<meta property="og:site_name" content="${HOSTILE.replaceAll('"', '&quot;')}"></head><body>
<form action="/session" method="post"><input name="user"><input type="password" name="pw"><button>Log in</button></form></body></html>`);
      default:
        return response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  // The Platform API: an update of a message in `refusing` is a 400 whose message carries markup.
  const refusing = new Set();
  const updates = [];
  const scene = { apiError: `Channel is frozen ${HOSTILE}` };
  const api = await listen((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const id = Number(request.url.split('/').pop());
      if (request.method === 'PUT' && refusing.has(id)) {
        response.writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: true, code: 400108, message: scene.apiError }));
        return;
      }
      updates.push({ id, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const work = await mkdtemp(join(tmpdir(), 'deskkit-console-'));
  const deskkit = process.env.DESKKIT ?? new URL('../../../.build/debug/deskkit', import.meta.url).pathname;
  // The image proxy names the server's public URL in the cards: a port picked here (free a moment ago).
  const free = await listen(() => {});
  const chosen = free.port;
  await new Promise((resolve) => free.server.close(resolve));
  const server = spawn(deskkit, ['serve', '--port', String(chosen), '--allow-private', '--store', `sqlite:${join(work, 'jobs.sqlite')}`],
    {
      env: {
        ...process.env, SENDBIRD_API_TOKEN: TOKEN, DESKKIT_API_BASE: `http://127.0.0.1:${api.port}`,
        DESKKIT_API_KEYS: CLIENT_KEY, DESKKIT_OPERATOR_KEYS: `console:${KEY}`,
        DESKKIT_IMAGE_PROXY_KEYS: 'console-test-image-key-0123456789',
        DESKKIT_PUBLIC_URL: `http://127.0.0.1:${chosen}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  let log = '';
  const listening = new Promise((resolve, reject) => {
    const read = (chunk) => {
      log += chunk;
      const found = /listening on 127\.0\.0\.1:(\d+)/.exec(log);
      if (found) resolve(Number(found[1]));
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.on('exit', (code) => reject(new Error(`deskkit serve ended (${code}) before listening: ${log}`)));
  });
  const port = await listening;
  const origin = `http://127.0.0.1:${port}`;
  return Object.assign(scene, {
    origin,
    pages: `http://127.0.0.1:${pages.port}`,
    refusing,
    updates,
    get log() { return log; },
    /** Posts a signed `group_channel:message_send` webhook of message `id` saying `text`; its answer's JSON. */
    async webhook(id, text) {
      const body = JSON.stringify({
        category: 'group_channel:message_send', type: 'MESG', app_id: 'CONSOLE', custom_type: '',
        sender: { user_id: 'customer-1', nickname: 'Ann' },
        payload: { message_id: id, message: text, custom_type: '', data: '', created_at: 1_700_000_000_000 + id },
        channel: { channel_url: 'sendbird_group_channel_console', name: 'Order 1138' },
      });
      const response = await fetch(`${origin}/webhooks/sendbird`, {
        method: 'POST', body,
        headers: { 'content-type': 'application/json', 'x-sendbird-signature': createHmac('sha256', TOKEN).update(body).digest('hex') },
      });
      return response.json();
    },
    /** The server's API with the operator's key. */
    async api(path, method = 'GET') {
      const response = await fetch(`${origin}${path}`, { method, headers: { authorization: `Bearer ${KEY}` } });
      return response.json();
    },
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.on('exit', resolve)));
      pages.server.close();
      api.server.close();
      pages.server.closeAllConnections();
      api.server.closeAllConnections();
      await rm(work, { recursive: true, force: true });
    },
  });
}

/** Opens the console of the server at `origin` in `browser` (support/cdp.mjs) and waits for its page to start. */
export async function openConsole(browser, origin) {
  await browser.open(`${origin}/console`);
  await browser.until('the console to start', `document.body.dataset.ready === 'true'`);
}

/** Types `key` into the console's form and sends it, as an operator does. */
export function enterKey(browser, key = KEY) {
  return browser.evaluate(`document.getElementById('key').value = ${JSON.stringify(key)};
    document.getElementById('key-form').requestSubmit()`);
}
