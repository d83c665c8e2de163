import type { BareFastifyRow, BenchReport, BenchRow, ContendedPhase, GatewayNoopRow, NoopMeasure, ProcessCpu, RoundTripBound, RunCpu, RunView } from '@oversell/contracts';
import { CEILING_MEASURED_LOW, DEFAULT_ORDER_WRITE, ceilingPercent, isCeilingTarget, unitsSoldTwice } from '@oversell/contracts';

const MB = 1024 * 1024;
/** Issue 12's target for the stack's own cost: the service's no-op at least half a bare Fastify's. */
export const CEILING_SHARE_TARGET = 0.5;

/** A finished run as a bench row; the ratio is filled in once the ceiling is known. */
export function benchRow(run: RunView): BenchRow {
  const result = run.result;
  return {
    strategy: run.params.strategy,
    orderWrite: run.params.orderWrite ?? DEFAULT_ORDER_WRITE,
    runId: run.id,
    status: run.status === 'completed' ? 'completed' : 'failed',
    failure: run.failure,
    sold: result?.reconciliation.sold ?? 0,
    soldTwice: result ? unitsSoldTwice(result.reconciliation) : 0,
    oversold: result?.reconciliation.oversold ?? 0,
    lost: result?.reconciliation.lost ?? 0,
    lockTimeouts: result?.counts.lock_timeout ?? 0,
    conflicts: result?.counts.conflict ?? 0,
    conflictRetries: result?.conflictRetries ?? 0,
    exclusionViolations: result?.reconciliation.exclusionViolations ?? 0,
    attempts: result?.counts.attempts ?? 0,
    errors: result?.counts.error ?? 0,
    cpu: result?.cpu ? cpuShares(result.cpu, result.counts.attempts, result.reconciliation.sold) : null,
    throughput: result?.throughput ?? 0,
    ratioToCeiling: null,
    p50: result?.latency.p50 ?? 0,
    p99: result?.latency.p99 ?? 0,
    contendedPhase: result?.contendedPhase ?? null,
    peakRssMb: (result?.instances ?? []).map((i) => Math.round((i.peakRssBytes / MB) * 10) / 10),
    roundTrip: null,
  };
}

/** Each role's CPU over the requests answered and the units sold, in whole µs (absent with none to divide by). */
export function cpuShares(cpu: RunCpu, requests: number, units: number): NonNullable<BenchRow['cpu']> {
  const byRole = new Map<ProcessCpu['role'], number>();
  for (const process of cpu.processes) byRole.set(process.role, (byRole.get(process.role) ?? 0) + process.cpuMs);
  const per = (count: number) => (count > 0 ? Object.fromEntries([...byRole].map(([role, ms]) => [role, Math.round((ms * 1000) / count)])) : {});
  return { perRequestUs: per(requests), perUnitUs: per(units) };
}

const CPU_ROLES: readonly ProcessCpu['role'][] = ['load-tool', 'instance', 'redis', 'mysql'];

/**
 * Where each row's CPU went, process by process, per request answered and per unit sold: on two cores
 * the load tool, the instances, Redis and MariaDB share the machine, and req/s alone hides who paid.
 */
function cpuTable(report: BenchReport): string[] {
  const rows = [...(report.ceiling ? [report.ceiling] : []), ...report.rows].filter((r) => r.status === 'completed' && r.cpu);
  if (!rows.length) return [];
  const cell = (value: number | undefined) => (value === undefined ? '–' : String(value));
  const total = (shares: Partial<Record<ProcessCpu['role'], number>>) => (Object.keys(shares).length ? Object.values(shares).reduce((a, b) => a + b, 0) : undefined);
  return [
    '',
    'CPU per request answered (µs), by process, while the load ran; and all of it per unit sold:',
    '',
    '| row | load tool | instances | Redis | MariaDB | all, per request | all, per unit sold |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${benchRowLabel(r)} | ${CPU_ROLES.map((role) => cell(r.cpu!.perRequestUs[role])).join(' | ')} | ${cell(total(r.cpu!.perRequestUs))} | ${cell(total(r.cpu!.perUnitUs))} |`),
  ];
}

/** A row's name in the table and the charts: the strategy, marked when its orders went through the queue or a stream. */
export function benchRowLabel(row: Pick<BenchRow, 'strategy' | 'orderWrite'>): string {
  return row.orderWrite && row.orderWrite !== 'sync' ? `${row.strategy} (${row.orderWrite})` : row.strategy;
}

/**
 * The bare Fastify no-op beside the service's: the ceiling as a share of it. Kept exact, as the row ratios
 * are: rounded here and again for the table, 0.5448 read 55 %, and 0.49996 passed the 50 % target.
 */
export function withCeilingShare(bare: NoopMeasure, ceiling: BenchRow | null): BareFastifyRow {
  return { ...bare, ceilingShare: ceiling ? throughputShare(ceiling, bare) : null };
}

/** One throughput ÷ another, exact; null when the second answered nothing. */
function throughputShare(of: { throughput: number }, against: { throughput: number } | null): number | null {
  return against && against.throughput > 0 ? of.throughput / against.throughput : null;
}

/** The service's no-op through the gateway as a share of bare Fastify's and of the ceiling's (exact, as above). */
export function withGatewayShares(viaGateway: NoopMeasure, bare: NoopMeasure | null, ceiling: BenchRow | null): GatewayNoopRow {
  return {
    ...viaGateway,
    bareShare: throughputShare(viaGateway, bare),
    ceilingShare: throughputShare(viaGateway, ceiling),
  };
}

/** Splits the ceiling from the strategies and expresses each strategy's throughput as a share of it. */
export function withCeiling(rows: BenchRow[]): { ceiling: BenchRow | null; rows: BenchRow[] } {
  const ceiling = rows.find((r) => isCeilingTarget(r.strategy) && r.status === 'completed') ?? null;
  const strategies = rows.filter((r) => !isCeilingTarget(r.strategy));
  return {
    ceiling,
    rows: strategies.map((r) => ({ ...r, ratioToCeiling: throughputShare(r, ceiling) })),
  };
}

function pct(ratio: number | null): string {
  if (ratio === null) return '–';
  const percent = ceilingPercent(ratio);
  return percent === null ? CEILING_MEASURED_LOW.en : `${percent} %`;
}

/** The contended phase's four cells; the req/s before them is mostly the sold-out phase's. */
function phaseCells(phase: ContendedPhase | null): string {
  if (!phase) return '– | – | – | –';
  return `${phase.soldOut ? phase.durationMs / 1000 : 'never sold out'} | ${phase.unitsPerSec.toFixed(0)} | ${phase.p50} | ${phase.p99}`;
}

/** A lock strategy's three round-trip cells: uncontended section, 1 ÷ it, and the contended phase's share of that. */
function roundTripCells(bound: RoundTripBound | null): string {
  if (!bound) return '– | – | –';
  return `${bound.holdMs} | ${bound.boundPerSec.toFixed(0)} | ${bound.efficiency === null ? '–' : `${Math.round(bound.efficiency * 100)} %`}`;
}

/**
 * Rounded down, so the percent shown never reaches a target that the exact share missed; after a
 * nudge below float error, so a share of exactly 0.29 (28.999999999999996 times 100) reads 29 %.
 */
function percentDown(share: number): number {
  return Math.floor(share * 100 + 1e-9);
}

/** A share against the 50 % target: the ceiling's of bare Fastify, the gateway's of the ceiling (issue 34's). */
function shareOf(share: number, of: string): string {
  return `${percentDown(share)} % of ${of} (target ≥ ${CEILING_SHARE_TARGET * 100} %: ${share >= CEILING_SHARE_TARGET ? 'met' : 'not met'})`;
}

/** The stack's own cost in a sentence or two, or nothing when the bench measured no bare Fastify. */
function stackCostLine(report: BenchReport): string[] {
  const bare = report.bareFastify;
  if (!bare) return [];
  const share = bare.ceilingShare === null ? 'no ceiling to compare' : `the service's no-op at the instances' own ports (the ceiling) is ${shareOf(bare.ceilingShare, 'it')}`;
  const gateway = report.throughGateway;
  const viaGateway = gateway
    ? ` Through the gateway, where k6 and \`npm run load\` send by default, the service's no-op answered ${gateway.throughput.toFixed(0)} req/s: ${gateway.bareShare === null ? '–' : `${percentDown(gateway.bareShare)} %`} of it, ${gateway.ceilingShare === null ? '– of the ceiling' : `${shareOf(gateway.ceilingShare, 'the ceiling')}`}.`
    : '';
  return [`Stack's own cost: a bare Fastify no-op (one process, same load tool and connections) answered ${bare.throughput.toFixed(0)} req/s; ${share}.${viaGateway}`, ''];
}

export function markdownTable(report: BenchReport): string {
  const header = '| strategy | sold | sold twice | oversold | lost | lock timeouts | conflicts | excl. violations | req/s | of ceiling | p50 ms | p99 ms | sell-out s | units/s in phase | phase p50 ms | phase p99 ms | uncontended section ms | round-trip bound/s | of bound | peak RSS MB/instance |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const line = (r: BenchRow) =>
    r.status === 'failed'
      ? `| ${benchRowLabel(r)} | failed: ${r.failure ?? 'unknown'} | | | | | | | | | | | | | | | | | |`
      : `| ${benchRowLabel(r)} | ${r.sold} | ${r.soldTwice} | ${r.oversold} | ${r.lost} | ${r.lockTimeouts} | ${r.conflicts} | ${r.exclusionViolations} | ${r.throughput.toFixed(0)} | ${isCeilingTarget(r.strategy) ? '100 %' : pct(r.ratioToCeiling)} | ${r.p50} | ${r.p99} | ${phaseCells(r.contendedPhase)} | ${roundTripCells(r.roundTrip)} | ${r.peakRssMb.join(' / ')} |`;
  const rows = [...(report.ceiling ? [report.ceiling] : []), ...report.rows].map(line);
  const s = report.settings;
  return [
    `Scenario \`${report.scenario}\`: stock ${s.initialStock}, ${s.connections} connections, ${s.durationSec ? `${s.durationSec} s` : `${s.totalRequests} requests`}, lock TTL ${s.lockTtlMs ?? 'default'} ms, business delay ${s.businessDelayMs ?? 0} ms; orders written ${s.orderWrites.join(' and ')}; ${report.instances} instances; ${report.machine.cpus} cores, Node ${report.machine.node}.`,
    '',
    ...stackCostLine(report),
    header,
    rule,
    ...rows,
    ...cpuTable(report),
    ...errorLines(report),
  ].join('\n');
}

/**
 * Rows whose requests were answered with errors, said under the table: such a row looks fast (an
 * error is cheap to answer) while its strategy sold little or nothing.
 */
function errorLines(report: BenchReport): string[] {
  const errored = report.rows.filter((r) => r.status === 'completed' && r.errors > 0);
  return errored.length
    ? ['', ...errored.map((r) => `**${benchRowLabel(r)}: ${r.errors} of ${r.attempts} requests answered with an error** (a store out of reach, a service failure): its req/s and latency are partly those of the errors, not the strategy's.`)]
    : [];
}

/** Rows that failed, or whose requests were answered with errors: the bench then exits non-zero. */
export function benchTrouble(report: BenchReport): BenchRow[] {
  return [...(report.ceiling ? [report.ceiling] : []), ...report.rows].filter((r) => r.status === 'failed' || r.errors > 0);
}
