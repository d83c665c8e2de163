import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ORDER_OUTCOMES, type RunView } from '@oversell/contracts';
import type { Lab } from './lab';
import { REPO_ROOT } from './paths';
import { startTestLab } from '../testing/test-lab';

/**
 * docker-compose's monitoring run for real: Debian's Prometheus, with the compose scrape config
 * (infra/prometheus/prometheus.yml), scrapes a lab's instances; the Grafana dashboard
 * (infra/grafana) asks only for series those instances export, of the datasource Grafana is given.
 */
const run = promisify(execFile);
const PROMETHEUS_CONFIG = join(REPO_ROOT, 'infra', 'prometheus', 'prometheus.yml');
const ENSURE_PROMETHEUS = join(REPO_ROOT, 'infra', 'scripts', 'ensure-prometheus.sh');
const DASHBOARD = join(REPO_ROOT, 'infra', 'grafana', 'dashboards', 'oversell-lab.json');
const DATASOURCES = join(REPO_ROOT, 'infra', 'grafana', 'provisioning', 'datasources', 'prometheus.yml');
const DASHBOARD_PROVIDERS = join(REPO_ROOT, 'infra', 'grafana', 'provisioning', 'dashboards', 'oversell-lab.yml');
const COMPOSE = join(REPO_ROOT, 'docker-compose.yml');
const JOB = 'order-service';
const STRATEGY = 'lua-decrement';
/** A strategy that takes a lock (on the stock's Redis: no lock service to start). */
const LOCK_STRATEGY = 'watchdog';
// The scripts see this much of the environment (apt-get and Prometheus need no more).
const SCRIPT_ENV = { env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' } };

/**
 * The compose config as this test runs it: the lab's instances from a file in place of compose's DNS
 * discovery, and scraped every second rather than every 5 s, so the test waits less.
 */
function renderedConfig(dir: string, lab: Lab): string {
  const compose = readFileSync(PROMETHEUS_CONFIG, 'utf8');
  const targets = join(dir, 'targets.json');
  writeFileSync(targets, JSON.stringify([{ targets: lab.instances.map((instance) => new URL(instance.url).host) }]));
  const rendered = compose
    .replace(/^( +)dns_sd_configs:\n(?:\1 .*\n)+/m, `$1file_sd_configs:\n$1  - files: [${JSON.stringify(targets)}]\n`)
    .replace(/^( +)scrape_interval: .*$/m, '$1scrape_interval: 1s');
  if (!rendered.includes('file_sd_configs') || !rendered.includes('scrape_interval: 1s')) throw new Error(`${PROMETHEUS_CONFIG} no longer has the DNS discovery and scrape interval this test replaces`);
  const file = join(dir, 'prometheus.yml');
  writeFileSync(file, rendered);
  return file;
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

interface DashboardTarget {
  refId: string;
  expr: string;
  datasource: { type: string; uid: string };
}

interface FieldConfig {
  defaults: { unit?: string };
  overrides: { matcher: { id: string; options: string }; properties: { id: string; value: unknown }[] }[];
}

interface Dashboard {
  uid: string;
  panels: { title: string; datasource: { type: string; uid: string }; fieldConfig: FieldConfig; targets: DashboardTarget[] }[];
  templating: { list: { name: string; datasource: { type: string; uid: string }; query: { query: string } }[] };
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const dashboardTargets = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, ...target })));

function dashboardTarget(panel: string): DashboardTarget {
  const target = dashboardTargets.find((candidate) => candidate.panel === panel);
  if (!target) throw new Error(`no panel "${panel}" in ${DASHBOARD}`);
  return target;
}

/** Grafana's variables, given values Prometheus accepts (every strategy; a rate window of a few scrapes). */
const withVariables = (expr: string) => expr.replaceAll('$strategy', '.*').replaceAll('$__rate_interval', '1m');

let lab: Lab;
let prometheusUrl: string | undefined;
let configDir: string | undefined;
let renderedConfigFile: string;

async function query(expr: string): Promise<Sample[]> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query: expr })}`);
  const body = (await response.json()) as { status: string; error?: string; data: { resultType: string; result: Sample[] } };
  if (body.status !== 'success') throw new Error(`Prometheus refused ${expr}: ${body.error}`);
  return body.data.result;
}

/** Polls the condition (at most `withinMs`): what Prometheus has scraped, never a guess at how long it takes. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, withinMs = 20_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${withinMs / 1000} s; last seen ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

/**
 * Resolves once Prometheus holds a scrape of every instance begun after `seconds` (Unix time). A scrape's
 * samples and its `up` are written together: once every instance's `up` is that recent, the series it
 * holds include everything the instances counted before then.
 */
async function scrapedAfter(seconds: number): Promise<void> {
  await until(
    'a scrape of every instance after the load',
    () => query(`timestamp(up{job="${JOB}"})`),
    (ups) => ups.length === lab.instances.length && ups.every((sample) => Number(sample.value[1]) >= seconds),
  );
}

const total = (samples: Sample[]) => samples.reduce((sum, sample) => sum + Number(sample.value[1]), 0);

const post = (path: string, body: unknown) => fetch(`${lab.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  lab = await startTestLab(2, { strategies: [STRATEGY, LOCK_STRATEGY] });
  configDir = mkdtempSync(join(tmpdir(), 'oversell-prometheus-'));
  renderedConfigFile = renderedConfig(configDir, lab);
  const { stdout } = await run('bash', [ENSURE_PROMETHEUS, 'start', '--config', renderedConfigFile, '--owner', String(process.pid)], SCRIPT_ENV);
  prometheusUrl = stdout.trim();
});

afterAll(async () => {
  if (prometheusUrl) await run('bash', [ENSURE_PROMETHEUS, 'stop', prometheusUrl], SCRIPT_ENV);
  await lab?.stop();
  if (configDir) rmSync(configDir, { recursive: true, force: true });
});

describe("docker-compose's Prometheus, scraping a lab", () => {
  it('takes the compose config and the one it was rendered to as valid (promtool)', async () => {
    for (const file of [PROMETHEUS_CONFIG, renderedConfigFile]) await expect(run('promtool', ['check', 'config', file], SCRIPT_ENV)).resolves.toBeDefined();
  });

  it('scrapes every instance of the lab, and every one answers', async () => {
    interface Target {
      scrapeUrl: string;
      health: string;
      labels: Record<string, string>;
    }
    const targets = await until(
      'every instance scraped and up',
      async () => ((await (await fetch(`${prometheusUrl}/api/v1/targets?state=active`)).json()) as { data: { activeTargets: Target[] } }).data.activeTargets,
      (active) => active.length === lab.instances.length && active.every((target) => target.health === 'up'),
    );
    expect(targets.map((target) => target.scrapeUrl).sort()).toEqual(lab.instances.map((instance) => `${instance.url}/metrics`).sort());
    expect(targets.every((target) => target.labels.job === JOB)).toBe(true);
  });

  it('gives back the orders the test placed, by strategy and outcome, summed over the instances', async () => {
    const stock = 12;
    const orders = 15;
    const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
    expect((await post(`/api/products/${productId}/reset`, { stock, strategy: STRATEGY })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: orders }, () => post('/api/orders', { productId, quantity: 1, strategy: STRATEGY })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(stock).fill(201), ...Array(orders - stock).fill(409)]);
    const placedAt = Date.now() / 1000;

    await scrapedAfter(placedAt);
    const sold = await query(`oversell_orders_total{job="${JOB}",strategy="${STRATEGY}",outcome="sold"}`);
    // The gateway spread the orders: each instance has its own series, and together they hold every sale.
    expect(sold).toHaveLength(lab.instances.length);
    expect(total(sold)).toBe(stock);
    const byOutcome = await query(`sum by (outcome) (oversell_orders_total{job="${JOB}",strategy="${STRATEGY}"})`);
    // Every outcome is there, at 0 until it happens: a series must be scraped before its first rise for rate() to see it.
    const none = Object.fromEntries(ORDER_OUTCOMES.map((outcome) => [outcome, 0]));
    expect(Object.fromEntries(byOutcome.map((sample) => [sample.metric.outcome, Number(sample.value[1])]))).toEqual({ ...none, sold: stock, sold_out: orders - stock });

    // The dashboard's panel of outcomes shows them (a rate needs two scrapes of the counters).
    const panel = dashboardTarget('Order outcomes by strategy');
    // These are the instances' first orders: the panel sees them rise only because their series were scraped at 0 before.
    const shown = await until('the outcomes panel showing the orders', () => query(withVariables(panel.expr)), (result) => result.length === 2);
    expect(shown.map((sample) => `${sample.metric.strategy} ${sample.metric.outcome}`).sort()).toEqual([`${STRATEGY} sold`, `${STRATEGY} sold_out`]);
  });

  it("times every lock holding of a run, in lock wait and lock hold, and the dashboard's lock panels show them", async () => {
    const created = await post('/api/runs', { strategy: LOCK_STRATEGY, initialStock: 20, businessDelayMs: 1, load: { connections: 10, durationSec: 1 } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as RunView;
    const run = await until(
      'the run finished',
      async () => (await (await fetch(`${lab.gatewayUrl}/api/runs/${id}`)).json()) as RunView,
      (view) => view.status === 'completed' || view.status === 'failed',
      120_000,
    );
    expect({ status: run.status, failure: run.failure }).toEqual({ status: 'completed', failure: null });
    const holdings = run.result!.lockEvents.length + (run.result!.reconciliation.lockEventsDropped ?? 0);
    expect(holdings).toBeGreaterThan(0);

    await scrapedAfter(Date.parse(run.finishedAt!) / 1000);
    for (const histogram of ['oversell_lock_wait_seconds', 'oversell_lock_hold_seconds']) {
      expect({ histogram, observed: total(await query(`${histogram}_count{job="${JOB}",strategy="${LOCK_STRATEGY}"}`)) }).toEqual({ histogram, observed: holdings });
    }
    for (const panel of ['Lock wait', 'Lock hold']) {
      const shown = await until(`the ${panel} panel showing the run`, () => query(withVariables(dashboardTarget(panel).expr)), (result) => result.length > 0);
      expect(shown.map((sample) => sample.metric.strategy)).toEqual([LOCK_STRATEGY]);
    }
  });
});

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);

/**
 * The series a PromQL expression reads: its identifiers once strings, label matchers, ranges and the
 * label lists of `by`/`without` are taken out, leaving out functions and aggregations (followed by a
 * parenthesis), keywords and numbers.
 */
function seriesNamed(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/(?<![\w.])([A-Za-z_:][\w:]*)\b(?!\s*\()/g)].map((match) => match[1]).filter((name) => !PROMQL_WORDS.has(name));
}

/** The series an instance exports, from its live /metrics: each declared metric, histograms with their three series. */
async function exportedSeries(instanceUrl: string): Promise<Set<string>> {
  const text = await (await fetch(`${instanceUrl}/metrics`)).text();
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    else names.add(name);
  }
  return names;
}

describe('the Grafana dashboard', () => {
  it('reads from the datasource Grafana is provisioned with, in every panel, query and variable', () => {
    const uids = [...readFileSync(DATASOURCES, 'utf8').matchAll(/^\s*uid:\s*(\S+)\s*$/gm)].map((match) => match[1]);
    expect(uids).toHaveLength(1);
    const used = [...dashboard.panels.map((panel) => panel.datasource), ...dashboardTargets.map((target) => target.datasource), ...dashboard.templating.list.map((variable) => variable.datasource)];
    expect(used.length).toBeGreaterThan(dashboardTargets.length);
    expect(used.filter((datasource) => datasource.uid !== uids[0] || datasource.type !== 'prometheus')).toEqual([]);
  });

  // No Grafana runs here (Debian has no package of it): a path that does not match leaves Grafana with no dashboard, silently.
  it('is mounted where the provisioning and the home page look for it, beside the compose Prometheus the datasource reads', () => {
    const compose = readFileSync(COMPOSE, 'utf8');
    const dashboardsDir = /^\s*path:\s*(\S+)\s*$/m.exec(readFileSync(DASHBOARD_PROVIDERS, 'utf8'))?.[1];
    expect(compose).toContain(`- ./infra/grafana/dashboards:${dashboardsDir}:ro`);
    expect(compose).toContain(`- ./infra/grafana/provisioning:/etc/grafana/provisioning:ro`);
    expect(compose).toContain(`GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH: ${dashboardsDir}/${basename(DASHBOARD)}`);
    const datasourceUrl = new URL(/^\s*url:\s*(\S+)\s*$/m.exec(readFileSync(DATASOURCES, 'utf8'))?.[1] ?? 'http://missing');
    expect(compose).toMatch(new RegExp(`^  ${datasourceUrl.hostname}:\\n    image: prom/prometheus:`, 'm'));
    // The port prom/prometheus listens on inside the compose network (compose leaves it as the image has it).
    expect(datasourceUrl.port).toBe('9090');
  });

  it('names only series the instances export, in every query and variable', async () => {
    const exported = await exportedSeries(lab.instances[0].url);
    const variables = dashboard.templating.list.map((variable) => /^label_values\((\w+),\s*\w+\)$/.exec(variable.query.query)?.[1] ?? `unreadable variable ${variable.name}`);
    const named = [...dashboardTargets.flatMap((target) => seriesNamed(target.expr)), ...variables];
    expect(dashboardTargets.every((target) => seriesNamed(target.expr).length > 0)).toBe(true);
    expect(named.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('shows a rate of events in a unit of rates, never as a time, in every panel', () => {
    const unitOf = (panel: Dashboard['panels'][number], refId: string) =>
      panel.fieldConfig.overrides
        .filter((override) => override.matcher.id === 'byFrameRefID' && override.matcher.options === refId)
        .flatMap((override) => override.properties)
        .find((property) => property.id === 'unit')?.value ?? panel.fieldConfig.defaults.unit;
    const rates = dashboard.panels.flatMap((panel) =>
      panel.targets.filter((target) => !target.expr.startsWith('histogram_quantile') && /\brate\(\w+_(total|count)\b/.test(target.expr)).map((target) => ({ panel: panel.title, refId: target.refId, unit: unitOf(panel, target.refId) })),
    );
    expect(rates.length).toBeGreaterThan(1);
    expect(rates.filter((rate) => ['s', 'ms', 'µs', 'ns'].includes(String(rate.unit)))).toEqual([]);
  });

  it('asks Prometheus only what it understands, in every query', async () => {
    // A query Prometheus refuses makes `query` throw, naming it.
    await expect(Promise.all(dashboardTargets.map((target) => query(withVariables(target.expr))))).resolves.toHaveLength(dashboardTargets.length);
  });
});
