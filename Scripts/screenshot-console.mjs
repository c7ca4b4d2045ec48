// The console's pictures for docs/ (Scripts/screenshot-console.sh): a server with some traffic, each page shot as an
// operator sees it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openBrowser } from '../Web/test/support/cdp.mjs';
import { startScene, openConsole, enterKey } from '../Web/test/support/console-scene.mjs';

const out = process.argv[2] ?? 'docs';
const scene = await startScene();
try {
  scene.refusing.add(1004);
  scene.apiError = 'Channel is frozen';
  const links = ['/guide', '/account', '/guide', '/missing', '/guide', '/account'];
  for (const [i, path] of links.entries()) {
    await scene.webhook(1000 + i, `Hello, about my order: ${scene.pages}${path}`);
  }
  // Until every job ended (five done, one failed).
  for (let i = 0; i < 100; i++) {
    const summary = await scene.api('/v1/queue');
    if (summary.counts.done + summary.counts.failed === links.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  async function shoot(name, { width, height, dark = false, hash, ready }) {
    const browser = await openBrowser({ width, height, dark });
    try {
      await openConsole(browser, scene.origin);
      await enterKey(browser);
      await browser.until('the key taken', `!document.getElementById('nav').hidden`);
      await browser.evaluate(`location.hash = ${JSON.stringify(hash)}`);
      await browser.until(name, ready);
      // Images decoded, the chart drawn: a last frame.
      await browser.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
      await writeFile(join(out, `${name}.png`), await browser.screenshot());
      console.log(join(out, `${name}.png`));
    } finally {
      await browser.close();
    }
  }
  // A message's link, inspected from its job (the console's lists show links masked).
  const inspected = (path) => `#inspect?message_id=${1000 + links.indexOf(path)}&link=0`;
  const shown = `!document.getElementById('inspection').hidden && (!document.querySelector('#card-view img') || document.querySelector('#card-view img').complete)`;
  await shoot('console-queue', { width: 1200, height: 900, hash: '#queue', ready: `document.querySelector('#jobs tbody tr')` });
  await shoot('console-refusals', { width: 1200, height: 900, hash: '#refusals', ready: `document.querySelector('#refusals-recent li')` });
  await shoot('console-inspect', { width: 1200, height: 900, hash: inspected('/guide'), ready: shown });
  await shoot('console-inspect-wall-dark', { width: 360, height: 800, dark: true, hash: inspected('/account'), ready: shown });
} finally {
  await scene.stop();
}
