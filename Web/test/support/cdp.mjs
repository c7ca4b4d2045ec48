// Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4 out,
// one JSON message per NUL-ended frame): no WebSocket, no package. Enough to drive a page as a person does —
// open it, read and act in it (Runtime.evaluate), wait for what it shows, shoot it — and to hear what the page
// reports (exceptions, Content-Security-Policy violations).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from './chromium.mjs';

export { chromium };

/**
 * A browser with one page, `width` × `height` CSS pixels, dark with `dark`. Names other than 127.0.0.1 resolve to
 * nothing: no request leaves the machine. Close it with `close()`.
 */
export async function openBrowser({ width = 1200, height = 900, dark = false } = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'deskkit-cdp-'));
  const browser = spawn(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
    `--user-data-dir=${profile}`, '--disable-background-networking', '--no-first-run',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', 'about:blank'],
  { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise((resolve) => browser.on('exit', resolve));
  const input = browser.stdio[3];
  const output = browser.stdio[4];
  let next = 1;
  const waiting = new Map();
  const listeners = [];
  let pending = Buffer.alloc(0);
  output.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let end;
    while ((end = pending.indexOf(0)) >= 0) {
      const message = JSON.parse(pending.subarray(0, end).toString('utf8'));
      pending = pending.subarray(end + 1);
      if (message.id && waiting.has(message.id)) {
        const { resolve, reject, method } = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      } else if (message.method) {
        for (const listener of listeners) listener(message);
      }
    }
  });
  const send = (method, params = {}, sessionId = undefined) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject, method });
    input.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  });

  const { targetInfos } = await send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'page');
  const { sessionId } = await send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
  const call = (method, params) => send(method, params, sessionId);
  const problems = [];
  listeners.push((message) => {
    if (message.sessionId !== sessionId) return;
    if (message.method === 'Runtime.exceptionThrown') {
      problems.push(`exception: ${message.params.exceptionDetails.exception?.description ?? message.params.exceptionDetails.text}`);
    } else if (message.method === 'Log.entryAdded' && /Content Security Policy|Refused to/.test(message.params.entry.text)) {
      problems.push(`policy: ${message.params.entry.text}`);
    }
  });
  await call('Page.enable');
  await call('Runtime.enable');
  await call('Log.enable');
  await call('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: width < 500 });
  await call('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }] });

  /** The value of `expression` in the page (awaited when it is a promise). */
  async function evaluate(expression) {
    const { result, exceptionDetails } = await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  return {
    evaluate,
    /** A DevTools protocol command on the page's session (`Accessibility.getFullAXTree`, `Input.dispatchKeyEvent`). */
    call,
    /** Every exception the page threw and every request its policy refused, so far. */
    problems,
    /** Opens `url` and waits for its load. */
    async open(url) {
      const loaded = new Promise((resolve) => listeners.push((m) => m.method === 'Page.loadEventFired' && m.sessionId === sessionId && resolve()));
      await call('Page.navigate', { url });
      await loaded;
    },
    /**
     * Waits until `expression` is truthy in the page, and answers its value; after `seconds`, fails naming
     * `what` was awaited and the last value seen.
     */
    async until(what, expression, seconds = 30) {
      const end = Date.now() + seconds * 1000;
      let last;
      while (Date.now() < end) {
        last = await evaluate(expression).catch((error) => `(${error.message})`);
        if (last && !(typeof last === 'string' && last.startsWith('('))) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`waited ${seconds} s for ${what}; last seen: ${JSON.stringify(last)}`);
    },
    /** A PNG of the whole page. */
    async screenshot() {
      const { data } = await call('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
      return Buffer.from(data, 'base64');
    },
    async close() {
      process.kill(-browser.pid, 'SIGKILL');
      await exited;
      await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
