// End-to-end check of the dashboard against a running stack (order service serving the built dashboard).
//   DASHBOARD_URL=http://127.0.0.1:8080 node apps/dashboard-e2e/src/dashboard.e2e.mjs  (npm run e2e starts the lab for it)
// Drives the lab from the UI (a no-lock run must oversell, a lua-decrement run must not, a uuid-lua run
// whose lease expires mid-order must oversell with overlapping lock holdings), checks the compare view,
// filters Compare by settings, downloads its CSV and reads it on a phone width,
// runs a pitfall preset from the Pitfalls view (the broken side oversells, the fix stays at 0), runs a
// lesson in presenter mode with a follower at #/follow, renders Lab, Pitfalls, Explain, Lessons and Glossary in zh-CN with no missing translation key, and saves screenshots to
// docs/screenshots/ at the repository root.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const BASE_URL = (process.env.DASHBOARD_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/screenshots');
/** Upper bound on one run: it may wait in the queue behind others before its 5 s of load. */
const RUN_TIMEOUT_MS = 120_000;
const RUN_FORM = { stock: '50', lockTtlMs: '2000', businessDelayMs: '20', connections: '60', durationSec: '5' };
/**
 * The lease-expiry pitfall, not sold out: the business time (250 ms) outlives the lock's TTL (100 ms), and
 * 100 units outlast the 5 s, so units sold twice never show as "oversold" (beyond the stock).
 */
const LEASE_EXPIRY_FORM = { stock: '100', lockTtlMs: '100', businessDelayMs: '250', connections: '20', durationSec: '5' };
/** A preset whose broken side needs no injected fault: the lease expires during the business time. */
const PITFALL_PRESET = 'expiry-during-business';
/** The lesson that runs it. */
const LESSON = 'lua-compare-and-delete';

let passed = 0;
let failed = 0;

async function check(name, fn) {
  try {
    await fn();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (error) {
    failed += 1;
    console.error(`FAIL ${name}: ${error instanceof Error ? error.message : error}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * Runs a pitfall preset from the Pitfalls view and waits for both sides to be judged; checks that the
 * broken side showed the pitfall and the fix stayed clean with 0 oversold, and returns each side's figures.
 */
async function runPitfallPreset(page, preset) {
  await page.goto(`${BASE_URL}/#/pitfalls`);
  await page.getByTestId('pitfall-preset').selectOption(preset);
  await page.getByTestId('pitfall-explanation').waitFor({ timeout: 15_000 });
  await page.getByTestId('run-pitfall').click();
  await page.waitForURL(new RegExp(`#/pitfalls/${preset}/[^/]+,[^/]+$`), { timeout: 15_000 }).catch(async () => {
    const refusal = await page.locator('[role="alert"], .notice--error').allTextContents();
    throw new Error(`the ${preset} runs were not queued${refusal.length ? `: ${refusal.join('; ')}` : ''}`);
  });
  const sides = {};
  for (const role of ['broken', 'fix']) {
    const side = page.getByTestId(`pitfall-side-${role}`);
    // Judged once its run completed and the stored result (with the reconciliation) is shown.
    await side.and(page.locator(':not([data-verdict="pending"])')).waitFor({ timeout: RUN_TIMEOUT_MS * 2 });
    const verdict = await side.getAttribute('data-verdict');
    assert(verdict !== 'failed', `${preset}: the ${role} side's run failed: ${await side.getByTestId('run-status').textContent()}`);
    await side.getByTestId('reconciliation').waitFor({ timeout: 15_000 });
    const timeline = side.getByTestId('lock-timeline');
    sides[role] = {
      verdict,
      soldTwice: Number(await side.getByTestId('stock-headline').getAttribute('data-value')),
      overlaps: Number(await timeline.getAttribute('data-overlaps')),
      faults: Number(await timeline.getAttribute('data-faults')),
    };
  }
  assert(sides.broken.verdict === 'showed', `${preset}: the broken side is judged "${sides.broken.verdict}", not "showed"`);
  assert(sides.fix.soldTwice === 0, `${preset}: the fix should sell no unit twice, got ${sides.fix.soldTwice}`);
  assert(sides.fix.verdict === 'clean', `${preset}: the fix is judged "${sides.fix.verdict}", not "clean"`);
  return sides;
}

/**
 * Fills the lab form (every field the checks set, since the form keeps its values between runs) and
 * starts a run; resolves once it completed, with its id, its panel and its headline's final figures.
 */
async function runFromLab(page, strategy, form = RUN_FORM) {
  await page.goto(`${BASE_URL}/#/lab`);
  await page.getByTestId('field-strategy').selectOption(strategy);
  await page.getByTestId('field-initialStock').fill(form.stock);
  await page.getByTestId('field-lockTtlMs').fill(form.lockTtlMs);
  await page.getByTestId('field-businessDelayMs').fill(form.businessDelayMs);
  await page.getByTestId('field-connections').fill(form.connections);
  await page.getByTestId('bound-duration').check();
  await page.getByTestId('field-durationSec').fill(form.durationSec);
  await page.getByTestId('start-run').click();

  // The lab navigates to #/lab/<run id> and shows that run's panel.
  await page.waitForURL(/#\/lab\/[^/]+$/, { timeout: 15_000 }).catch(async () => {
    const refusal = await page.locator('[data-testid="run-form-error"], .field-error, [role="alert"]').allTextContents();
    throw new Error(`the ${strategy} run did not start${refusal.length ? `: ${refusal.join('; ')}` : ''}`);
  });
  const runId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
  // Every figure the headline shows while the run goes, so a sound run can be held to 0 the whole way.
  await page.evaluate(() => {
    window.__headlineValues = [];
    new MutationObserver(() => {
      const headline = document.querySelector('[data-testid="stock-headline"]');
      if (headline) window.__headlineValues.push(Number(headline.getAttribute('data-value')));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-value'] });
  });
  const panel = page.locator(`[data-testid="run-panel"][data-run-id="${runId}"]`);
  const status = panel.getByTestId('run-status');
  await panel
    .locator('[data-testid="run-status"][data-status="completed"], [data-testid="run-status"][data-status="failed"]')
    .waitFor({ timeout: RUN_TIMEOUT_MS });
  const finalStatus = await status.getAttribute('data-status');
  assert(finalStatus === 'completed', `${strategy} run ended ${finalStatus}: ${await status.textContent()}`);
  // The reconciliation appears with the stored result; the headline then shows the final figures.
  await panel.getByTestId('reconciliation').waitFor({ timeout: 15_000 });
  const headline = panel.getByTestId('stock-headline');
  return {
    runId,
    panel,
    soldTwice: Number(await headline.getAttribute('data-value')),
    oversold: Number(await headline.getAttribute('data-oversold')),
    outcome: await headline.getAttribute('data-outcome'),
    highestShown: Math.max(0, ...(await page.evaluate(() => window.__headlineValues))),
    remaining: Number((await panel.getByTestId('reconciliation-remaining').textContent())?.replace(/\D/g, '')),
  };
}

/** Compare's settings filter set to the runs with these form settings (the latest run's are the default). */
async function selectCompareSettings(page, form) {
  const filter = page.getByTestId('compare-filter');
  await filter.locator('option').first().waitFor({ state: 'attached', timeout: 15_000 });
  const labels = await filter.locator('option').allTextContents();
  const wanted = `stock ${form.stock} · lock TTL ${form.lockTtlMs} ms · business delay ${form.businessDelayMs} ms · ${form.connections} connections`;
  const label = labels.find((text) => text.startsWith(wanted));
  assert(label, `no compare settings "${wanted}" among: ${labels.join(' | ')}`);
  await filter.selectOption({ label });
}

/** The headline's big number is drawn on one line (one line box) and inside its box. */
/** Each element's text as shown: how many line boxes it takes, and how far it overflows its box. */
async function textLines(locator) {
  return locator.evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      return { lines: tops.size, overflow: element.scrollWidth - element.clientWidth, text: element.textContent };
    }),
  );
}

async function assertCounterOnOneLine(panel, where) {
  const [{ lines, overflow, text }] = await textLines(panel.getByTestId('stock-headline-value'));
  assert(lines === 1, `${where}: the headline shows "${text}" on ${lines} lines`);
  assert(overflow <= 0, `${where}: the headline "${text}" overflows its box by ${overflow}px`);
}

/**
 * Each sequence diagram of a trace is legible and, where the window allows, whole: drawn at no less than
 * the legible floor (70 % of its own width: no text under 11 px); at a desktop width it fits its box (no
 * column cut off on the right); on a phone a wider one scrolls sideways in its box, never the page.
 */
async function assertDiagramsLegible(trace, { fits }) {
  const diagrams = await trace.locator('[data-testid="sequence-diagram"]').evaluateAll((figures) =>
    figures.map((figure) => {
      const svg = figure.querySelector('svg');
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const smallest = Math.min(...[...svg.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize) * scale));
      const columns = [...svg.querySelectorAll('text.actor')].map((text) => text.textContent).join(' | ');
      return { scale, smallest, columns, clipped: figure.scrollWidth - figure.clientWidth, scrolls: getComputedStyle(figure).overflowX === 'auto' };
    }),
  );
  const said = diagrams.map(({ scale, smallest, clipped, columns }) => `${Math.round(scale * 100)} % (text ≥ ${smallest.toFixed(1)} px, ${clipped} px beyond its box; ${columns})`).join(', ');
  assert(diagrams.length === 2, `expected the run's diagram and its model's, got ${diagrams.length}`);
  assert(diagrams.every(({ scale, smallest }) => scale >= 0.69 && smallest >= 11), `a diagram is shrunk below legible: ${said}`);
  if (fits) assert(diagrams.every(({ clipped }) => clipped <= 0), `a diagram is cut off on the right at ${fits}: ${said}`);
  else assert(diagrams.every(({ clipped, scrolls }) => clipped <= 0 || scrolls), `a diagram wider than its box does not scroll: ${said}`);
  const overflow = await trace.page().evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls horizontally by ${overflow}px beside the diagrams`);
}

/** A trace's diagrams checked at 1280 px (whole) and at a phone's 390 px (legible, scrolling in their box), screenshotted at both as `<name><lang>.png` and `<name>-phone<lang>.png`. */
async function screenshotDiagrams(page, trace, name, lang = '') {
  // Taken first, so a failed check leaves the picture of what failed.
  await trace.screenshot({ path: resolve(SCREENSHOTS, `${name}${lang}.png`) });
  await assertDiagramsLegible(trace, { fits: '1280 px' });
  await page.setViewportSize({ width: 390, height: 844 });
  await trace.screenshot({ path: resolve(SCREENSHOTS, `${name}-phone${lang}.png`) });
  await assertDiagramsLegible(trace, { fits: false });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
  ],
});

try {
  await mkdir(SCREENSHOTS, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  // The browser logs every failed fetch as "Failed to load resource" without its URL: those answers are
  // kept here with theirs, and any failed answer is an error.
  const failedAnswers = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failedAnswers.push({ url: new URL(response.url()).pathname, status: response.status() });
  });

  await check('lab view loads with the strategies', async () => {
    await page.goto(`${BASE_URL}/#/lab`);
    // Either the strategies load (their brief shows) or the dashboard says the service is unreachable.
    await page.locator('[data-testid="strategy-brief"], [data-testid="service-unreachable"]').first().waitFor({ timeout: 15_000 });
    const unreachable = page.getByTestId('service-unreachable');
    assert((await unreachable.count()) === 0, `the dashboard says: ${await unreachable.first().textContent().catch(() => '')}`);
  });
  if (failed > 0) throw new Error(`the dashboard at ${BASE_URL} is not usable; skipping the remaining checks`);

  /** The no-lock run, shown again at phone width. */
  let noLockRunId;
  /** The uuid-lua run whose trace is drawn beside its model's, shown again in Chinese. */
  let sequenceRunId;

  await check('no-lock sells units twice: the headline is red', async () => {
    const { runId, panel, soldTwice, outcome } = await runFromLab(page, 'no-lock');
    noLockRunId = runId;
    assert(soldTwice > 0, `expected units sold twice, got ${soldTwice}`);
    assert(outcome === 'sold-twice', `the headline is "${outcome}", not red`);
    await assertCounterOnOneLine(panel, '1280 px');
    await page.screenshot({ path: resolve(SCREENSHOTS, 'lab.png'), fullPage: true });
  });

  await check('lua-decrement sells no unit twice: the headline is green', async () => {
    const { soldTwice, outcome } = await runFromLab(page, 'lua-decrement');
    assert(soldTwice === 0 && outcome === 'held', `expected 0 sold twice and a green headline, got ${soldTwice} (${outcome})`);
  });

  await check('uuid-lua, lease shorter than the business time, stock left: red with the units sold twice, overlaps on the timeline', async () => {
    const { panel, soldTwice, oversold, outcome, remaining } = await runFromLab(page, 'uuid-lua', LEASE_EXPIRY_FORM);
    assert(remaining > 0, `the run was meant to end with stock left, got ${remaining}`);
    assert(oversold === 0, `nothing is sold beyond the stock while stock is left, got ${oversold}`);
    assert(soldTwice > 0, `expected units sold twice (TTL 100 ms < delay 250 ms), got ${soldTwice}`);
    assert(outcome === 'sold-twice', `the headline is "${outcome}", not red`);
    const what = await panel.getByTestId('stock-headline-what').textContent();
    assert(/sold, yet \d+ of 100 still in stock/.test(what ?? ''), `the headline says "${what}"`);
    const timeline = panel.getByTestId('lock-timeline');
    const holdings = Number(await timeline.getAttribute('data-holdings'));
    const overlaps = Number(await timeline.getAttribute('data-overlaps'));
    assert(holdings > 0, `expected lock holdings on the timeline, got ${holdings}`);
    assert(overlaps > 0, `expected overlapping holdings on the lock timeline, got ${overlaps} of ${holdings}`);
    const redBars = await timeline.locator('[data-testid="lock-bar"][data-overlap="true"]').count();
    assert(redBars > 0, 'no lock bar is drawn as overlapping');
    await assertCounterOnOneLine(panel, '1280 px');
    // The first unit sold twice as Mermaid drew it (an SVG, not an error), its second sale highlighted, the model's beside it.
    const trace = panel.getByTestId('run-trace');
    await trace.locator('[data-testid="sequence-diagram"] svg').first().waitFor({ timeout: 30_000 });
    const drawn = await trace.locator('[data-testid="sequence-diagram"]').first().textContent();
    assert(/GET stock → \d+/.test(drawn ?? '') && /the same unit sold a second time/.test(drawn ?? ''), `the run's sequence diagram reads "${drawn?.slice(0, 200)}"`);
    await trace.locator('[data-testid="model-sequence"] svg').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'lab-sold-twice.png'), fullPage: true });
    sequenceRunId = await panel.getAttribute('data-run-id');
    await screenshotDiagrams(page, trace, 'run-sequence-diagram');
  });

  await check('watchdog under the same settings sells no unit twice: the headline is green, live and at the end', async () => {
    const { soldTwice, outcome, highestShown } = await runFromLab(page, 'watchdog', LEASE_EXPIRY_FORM);
    assert(soldTwice === 0 && outcome === 'held', `expected 0 sold twice and a green headline, got ${soldTwice} (${outcome})`);
    assert(highestShown === 0, `the live headline showed ${highestShown} units sold twice for a run that sold none`);
  });

  await check('compare view, filtered to the settings of the no-lock and lua-decrement runs, shows both with their figures', async () => {
    await page.goto(`${BASE_URL}/#/compare`);
    await selectCompareSettings(page, RUN_FORM);
    for (const strategy of ['no-lock', 'lua-decrement']) {
      const row = page.getByTestId(`compare-row-${strategy}`);
      await row.and(page.locator('[data-has-run="true"]')).waitFor({ timeout: 15_000 });
      const oversold = Number((await row.getByTestId('compare-oversold').textContent())?.replace(/,/g, ''));
      const throughput = await row.getByTestId('compare-throughput').textContent();
      assert(Number.isFinite(oversold), `${strategy}: oversold cell is not a number`);
      assert(strategy === 'no-lock' ? oversold > 0 : oversold === 0, `${strategy}: unexpected oversold ${oversold}`);
      assert(/\d/.test(throughput ?? ''), `${strategy}: no throughput figure`);
      const settings = await row.getByTestId('compare-settings').textContent();
      assert(settings?.includes(`stock ${RUN_FORM.stock}`), `${strategy}: the settings column says "${settings}"`);
    }
    // The lease-expiry runs have other settings: they are not in this comparison.
    const uuidLua = page.getByTestId('compare-row-uuid-lua');
    assert((await uuidLua.getAttribute('data-has-run')) === 'false', 'the uuid-lua run (stock 100, TTL 100 ms) is compared with stock-50 runs');
    await page.screenshot({ path: resolve(SCREENSHOTS, 'compare.png'), fullPage: true });
  });

  await check('compare CSV download: a header row and one row per strategy shown, with its run id and settings', async () => {
    await page.goto(`${BASE_URL}/#/compare`);
    await selectCompareSettings(page, RUN_FORM);
    const shown = await page.locator('[data-testid^="compare-row-"]').evaluateAll((rows) =>
      rows.map((row) => ({ strategy: row.getAttribute('data-testid').replace('compare-row-', ''), hasRun: row.getAttribute('data-has-run') === 'true' })),
    );
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByTestId('compare-csv').click()]);
    assert(download.suggestedFilename() === 'compare.csv', `the download is named ${download.suggestedFilename()}`);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    const header = lines[0].split(',');
    assert(header[0] === 'strategy' && header.includes('runId') && header.includes('initialStock'), `the header row is "${lines[0]}"`);
    const rows = lines.slice(1).map((line) => line.split(','));
    assert(rows.length === shown.length, `${rows.length} CSV rows for ${shown.length} strategies shown`);
    rows.forEach((cells, index) => {
      assert(cells[0] === shown[index].strategy, `CSV row ${index + 1} is ${cells[0]}, the table's is ${shown[index].strategy}`);
      assert(Boolean(cells[1]) === shown[index].hasRun, `${cells[0]}: run id "${cells[1]}" in the CSV, the table ${shown[index].hasRun ? 'has' : 'has no'} run`);
      if (shown[index].hasRun) assert(cells[header.indexOf('initialStock')] === RUN_FORM.stock, `${cells[0]}: initialStock ${cells[header.indexOf('initialStock')]}`);
    });
  });

  await check('compare at phone width: no horizontal page scroll, every header on one line', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE_URL}/#/compare`);
    await page.getByTestId('compare-table').waitFor({ timeout: 15_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the page scrolls horizontally by ${overflow}px`);
    const wrapped = await page.getByTestId('compare-table').locator('thead th').evaluateAll((headers) =>
      headers
        .filter((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
        })
        .map((th) => th.textContent),
    );
    assert(wrapped.length === 0, `headers wrapped onto several lines: ${wrapped.join(', ')}`);
    await page.screenshot({ path: resolve(SCREENSHOTS, 'compare-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await check('Pitfalls view: the expiry preset\'s broken side (uuid-lua) sells units twice, its fix (watchdog) none', async () => {
    const sides = await runPitfallPreset(page, PITFALL_PRESET);
    assert(sides.broken.soldTwice > 0, `the broken side should sell units twice (lease 250 ms < business 500 ms), got ${sides.broken.soldTwice}`);
    assert(sides.broken.overlaps > 0, 'the broken side\'s lock timeline shows no overlapping holdings');
    await page.getByTestId('pitfall-side-broken').locator('[data-testid="run-trace"] [data-testid="sequence-diagram"] svg').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'pitfalls.png'), fullPage: true });
  });

  // The naive-setnx mis-deletion (its first holder paused past its lease after its write): the run's
  // diagram shows the late DEL of the next holder's lock and the sale it let in, beside the model's.
  let misdeletionUrl;
  await check("Pitfalls view: the mis-deletion preset's broken side (naive-setnx) draws its late DEL of another order's lock beside the model's", async () => {
    await runPitfallPreset(page, 'mis-deletion');
    misdeletionUrl = page.url();
    const trace = page.getByTestId('pitfall-side-broken').getByTestId('run-trace');
    await trace.locator('[data-testid="model-sequence"] svg').waitFor({ timeout: 30_000 });
    const drawn = await trace.locator('[data-testid="sequence-diagram"]').first().textContent();
    assert(/DEL removes [A-D]'s lock/.test(drawn ?? '') && /the same unit sold a second time/.test(drawn ?? ''), `the run's sequence diagram reads "${drawn?.slice(0, 300)}"`);
    await screenshotDiagrams(page, trace, 'mis-deletion-sequence-diagram');
  });

  // Lesson 7 runs the expiry preset (no injected fault: the lease expires during the business time).
  let lessonRunIds;
  await check('Lessons, presenter mode: → / ← move a follower at #/follow, r runs the lesson, the broken side is red and the fix green on both pages', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const follower = await browser.newPage({ viewport: { width: 390, height: 844 } });
    follower.on('pageerror', (error) => consoleErrors.push(`follower: ${error.message}`));
    try {
      await follower.goto(`${BASE_URL}/#/follow`);
      await follower.getByTestId('follow-view').waitFor({ timeout: 15_000 });
      const followed = (id) => follower.locator(`[data-testid="lesson"][data-lesson-id="${id}"]`).waitFor({ timeout: 15_000 });
      await page.goto(`${BASE_URL}/#/lessons/${LESSON}?presenter=1`);
      await page.getByTestId('lesson-title').waitFor({ timeout: 15_000 });
      await followed(LESSON);
      await page.keyboard.press('ArrowRight');
      await page.waitForURL(/#\/lessons\/watchdog\?presenter=1$/, { timeout: 5_000 });
      await followed('watchdog');
      await page.keyboard.press('ArrowLeft');
      await page.waitForURL(new RegExp(`#/lessons/${LESSON}\\?presenter=1$`), { timeout: 5_000 });
      await followed(LESSON);
      await page.keyboard.press('r');
      await page.waitForURL(new RegExp(`#/lessons/${LESSON}/[^/]+,[^/?]+\\?presenter=1$`), { timeout: 15_000 }).catch(async () => {
        const refusal = await page.locator('[role="alert"], .notice--error').allTextContents();
        throw new Error(`the lesson's runs were not queued${refusal.length ? `: ${refusal.join('; ')}` : ''}`);
      });
      lessonRunIds = decodeURIComponent(new URL(page.url()).hash.split('/')[3].split('?')[0]).split(',');
      for (const [where, on] of [['presenter', page], ['follower', follower]]) {
        const outcomes = {};
        for (const role of ['broken', 'fix']) {
          const side = on.locator(`[data-testid="pitfall-side-${role}"][data-run-id="${lessonRunIds[role === 'broken' ? 0 : 1]}"]`);
          await side.and(on.locator(':not([data-verdict="pending"])')).waitFor({ timeout: RUN_TIMEOUT_MS * 2 });
          await side.getByTestId('reconciliation').waitFor({ timeout: 15_000 });
          outcomes[role] = { verdict: await side.getAttribute('data-verdict'), outcome: await side.getByTestId('stock-headline').getAttribute('data-outcome') };
        }
        assert(outcomes.broken.verdict === 'showed' && outcomes.broken.outcome === 'sold-twice', `${where}: the broken side is ${JSON.stringify(outcomes.broken)}, not a red headline that showed the pitfall`);
        assert(outcomes.fix.verdict === 'clean' && outcomes.fix.outcome === 'held', `${where}: the fix is ${JSON.stringify(outcomes.fix)}, not a green headline that stayed clean`);
      }
      assert((await follower.getByTestId('run-lesson').count()) === 0, 'the follower has a run button');
      const overflow = await follower.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert(overflow <= 0, `#/follow scrolls horizontally by ${overflow}px at 390 px`);
      await page.getByTestId('pitfall-side-broken').locator('[data-testid="run-trace"] [data-testid="sequence-diagram"] svg').first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: resolve(SCREENSHOTS, 'lessons-en.png'), fullPage: true });
      await follower.screenshot({ path: resolve(SCREENSHOTS, 'follow-phone.png'), fullPage: true });
    } finally {
      await follower.close();
    }
  });

  await check('Lessons at phone width: no horizontal page scroll', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE_URL}/#/lessons/${LESSON}${lessonRunIds ? `/${lessonRunIds.join(',')}` : ''}`);
    await page.getByTestId('lesson-code').waitFor({ timeout: 15_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert(overflow <= 0, `the lesson scrolls horizontally by ${overflow}px at 390 px`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await check('phone width: lab without horizontal scroll', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The no-lock run, so the phone screenshot shows the alarm (its 4-digit counter on one line).
    await page.goto(`${BASE_URL}/#/lab${noLockRunId ? `/${encodeURIComponent(noLockRunId)}` : ''}`);
    await page.getByTestId('lab-view').waitFor({ timeout: 15_000 });
    if (noLockRunId) {
      const panel = page.locator(`[data-testid="run-panel"][data-run-id="${noLockRunId}"]`);
      await panel.getByTestId('reconciliation').waitFor({ timeout: 15_000 });
      await assertCounterOnOneLine(panel, '390 px');
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the page scrolls horizontally by ${overflow}px`);
    await page.screenshot({ path: resolve(SCREENSHOTS, 'lab-phone.png'), fullPage: true });
  });

  await check('phone width: #/explain/uuid-lua lands at that section; the Explain tables scroll in their box, no number split across lines', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE_URL}/#/explain/uuid-lua`);
    const section = page.getByTestId('explain-uuid-lua');
    await section.waitFor({ timeout: 15_000 });
    // The view scrolls once the strategies have loaded: wait for the section's top to reach the top of the window.
    await page
      .waitForFunction(() => {
        const top = document.getElementById('strategy-uuid-lua')?.getBoundingClientRect().top ?? Infinity;
        return top >= -2 && top < window.innerHeight / 3;
      }, undefined, { timeout: 5_000 })
      .catch(async () => {
        const top = await section.evaluate((element) => element.getBoundingClientRect().top);
        throw new Error(`the uuid-lua section's top is at ${top}px, not at the top of the window`);
      });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `the Explain page scrolls horizontally by ${overflow}px at 390 px`);
    const numbers = await textLines(page.locator('[data-testid="choosing-a-lock"] td.num'));
    assert(numbers.length > 0, 'the Explain tables have no number cells');
    const split = numbers.filter((cell) => cell.lines !== 1);
    assert(split.length === 0, `number cells on more than one line: ${split.map((cell) => `"${cell.text}" (${cell.lines})`).join(', ')}`);
    await page.screenshot({ path: resolve(SCREENSHOTS, 'explain-phone.png') });
  });

  await check('zh-CN: the language switch renders Lab, Pitfalls, Explain, Lessons and Glossary in Chinese with no key missing, remembered across a reload', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${BASE_URL}/#/lab${noLockRunId ? `/${encodeURIComponent(noLockRunId)}` : ''}`);
    await page.getByTestId('lab-view').waitFor({ timeout: 15_000 });
    await page.getByTestId('language-switch').selectOption('zh-CN');
    const lang = () => page.evaluate(() => document.documentElement.lang);
    assert((await lang()) === 'zh-CN', `the document's lang is "${await lang()}" after switching to Chinese`);
    await page.getByTestId('start-run').filter({ hasText: '开始运行' }).waitFor({ timeout: 5_000 });
    if (noLockRunId) await page.getByTestId('reconciliation').filter({ hasText: '对账' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'lab-zh-CN.png'), fullPage: true });
    const views = [
      ['pitfalls', 'pitfalls-view', '手写锁的每个已知陷阱'],
      ['explain', 'explain-view', '如何选锁'],
      ['glossary', 'glossary-view', '看门狗'],
    ];
    for (const [view, testId, text] of views) {
      await page.goto(`${BASE_URL}/#/${view}`);
      await page.getByTestId(testId).getByText(text).first().waitFor({ timeout: 15_000 });
      assert((await lang()) === 'zh-CN', `#/${view}: the document's lang is "${await lang()}"`);
    }
    await page.goto(`${BASE_URL}/#/pitfalls/${PITFALL_PRESET}`);
    await page.getByTestId('pitfall-explanation').filter({ hasText: '业务比租约活得更久' }).waitFor({ timeout: 15_000 });
    if (sequenceRunId) {
      // The same run's trace beside its model's, in Chinese, at desktop and phone width.
      await page.goto(`${BASE_URL}/#/lab/${encodeURIComponent(sequenceRunId)}`);
      const trace = page.locator(`[data-testid="run-panel"][data-run-id="${sequenceRunId}"]`).getByTestId('run-trace');
      await trace.locator('[data-testid="model-sequence"] svg').waitFor({ timeout: 30_000 });
      await trace.getByText('同一件商品被第二次卖出').first().waitFor({ timeout: 5_000 });
      await screenshotDiagrams(page, trace, 'run-sequence-diagram', '-zh-CN');
    }
    if (misdeletionUrl) {
      await page.goto(misdeletionUrl);
      const trace = page.getByTestId('pitfall-side-broken').getByTestId('run-trace');
      await trace.locator('[data-testid="model-sequence"] svg').waitFor({ timeout: 30_000 });
      await trace.locator('[data-testid="sequence-diagram"]').first().getByText(/DEL 删掉了 [A-D] 的锁/).waitFor({ timeout: 5_000 });
      await screenshotDiagrams(page, trace, 'mis-deletion-sequence-diagram', '-zh-CN');
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${BASE_URL}/#/lessons/${LESSON}${lessonRunIds ? `/${lessonRunIds.join(',')}` : ''}?presenter=1`);
    await page.getByTestId('lesson-title').filter({ hasText: 'Lua 比较并删除' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('run-lesson').filter({ hasText: '运行本课' }).waitFor({ state: 'attached', timeout: 5_000 });
    if (lessonRunIds) await page.getByTestId('pitfall-side-broken').getByTestId('reconciliation').filter({ hasText: '对账' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'lessons-zh-CN.png'), fullPage: true });
    await page.goto(`${BASE_URL}/#/lessons`);
    await page.getByTestId('lesson-list').getByText('重复点击').waitFor({ timeout: 15_000 });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${BASE_URL}/#/glossary`);
    await page.reload();
    await page.getByTestId('glossary-view').getByText('栅栏令牌').first().waitFor({ timeout: 15_000 });
    assert((await lang()) === 'zh-CN', 'the language switch was not remembered across a reload');
    await page.screenshot({ path: resolve(SCREENSHOTS, 'glossary-zh-CN.png'), fullPage: true });
    const missing = await page.evaluate(() => window.__missingTranslationKeys ?? null);
    assert(Array.isArray(missing) && missing.length === 0, `missing translation keys in zh-CN: ${missing?.join(', ')}`);
    await page.getByTestId('language-switch').selectOption('en');
    await page.getByRole('heading', { name: 'Glossary' }).waitFor({ timeout: 5_000 });
    assert((await lang()) === 'en', `the document's lang is "${await lang()}" after switching back to English`);
  });

  await check('no text missing a translation', async () => {
    const missing = await page.evaluate(() => window.__missingTranslationKeys ?? null);
    assert(Array.isArray(missing), 'the page does not report its missing translation keys');
    assert(missing.length === 0, `missing translation keys: ${missing.join(', ')}`);
  });

  await check('no console errors', async () => {
    assert(failedAnswers.length === 0, `failed answers: ${failedAnswers.map((answer) => `${answer.status} ${answer.url}`).join(', ')}`);
    assert(consoleErrors.length === 0, `console errors:\n  ${consoleErrors.join('\n  ')}`);
  });
} catch (error) {
  failed += 1;
  console.error(`FAIL e2e aborted: ${error instanceof Error ? error.message : error}`);
} finally {
  await browser.close();
}

console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
