import type { TFunction } from 'i18next';
import { isCeilingTarget, type FaultSettings, type RunParams } from '@oversell/contracts';

/** What a no-op run is for: a batch's discarded warm-up, or the ceiling itself; undefined for a strategy run. */
export function noopRole(params: RunParams): 'warmUp' | 'ceiling' | undefined {
  if (!isCeilingTarget(params.strategy)) return undefined;
  return params.warmUp ? 'warmUp' : 'ceiling';
}

/** The stock and lock settings of a run, each in words ("stock 50", "lock TTL 250 ms"). */
function stockSettings(params: Pick<RunParams, 'initialStock' | 'lockTtlMs' | 'businessDelayMs'>, t: TFunction): (string | false)[] {
  return [
    t('run.stock', { n: params.initialStock }),
    params.lockTtlMs !== undefined && t('run.lockTtl', { ms: params.lockTtlMs }),
    params.businessDelayMs !== undefined && t('run.businessDelay', { ms: params.businessDelayMs }),
  ];
}

function loadBound(load: RunParams['load'], t: TFunction): string {
  return load.durationSec !== undefined ? t('run.seconds', { n: load.durationSec }) : t('run.requests', { count: load.totalRequests, n: load.totalRequests });
}

const joined = (parts: (string | false | undefined | 0)[], t: TFunction) => parts.filter(Boolean).join(t('common.separator'));

/** A run's settings on one line. A no-op run takes no stock, lock or orders: only its load is said. */
export function describeRunParams(params: RunParams, t: TFunction): string {
  const { load } = params;
  const stock =
    isCeilingTarget(params.strategy)
      ? []
      : [
          ...stockSettings(params, t),
          params.segments !== undefined && t('run.segments', { count: params.segments, n: params.segments }),
          params.orderWrite === 'queued' && t('run.queuedOrders'),
          params.orderWrite === 'stream' && t('run.streamedOrders'),
        ];
  return joined(
    [
      ...stock,
      t('run.connections', { count: load.connections, n: load.connections }),
      loadBound(load, t),
      load.arrivalRate !== undefined && t('run.arrival', { n: load.arrivalRate }),
      params.scenario && t('run.scenario', { name: params.scenario }),
      params.faults?.length && t('run.faults', { kinds: params.faults.map((f) => f.kind).join(', ') }),
    ],
    t,
  );
}

/** The settings Compare groups runs by (comparedSettings), on one line. */
export function describeComparedSettings(params: RunParams, t: TFunction): string {
  return joined(
    [
      ...stockSettings(params, t),
      t('run.connections', { count: params.load.connections, n: params.load.connections }),
      params.faults?.length ? t('run.faults', { kinds: params.faults.map((f) => f.kind).join(', ') }) : t('run.noFaults'),
    ],
    t,
  );
}

function describeFaultSettings(fault: FaultSettings, t: TFunction): string {
  const { kind, at, durationMs: ms } = fault;
  if (at && ms) return t('run.faultAtFor', { kind, at, ms });
  if (at) return t('run.faultAt', { kind, at });
  if (ms) return t('run.faultFor', { kind, ms });
  return t('run.fault', { kind });
}

/** A pitfall preset's settings (the same on both sides) on one line, each fault with its point and length. */
export function describePresetSettings(settings: Pick<RunParams, 'initialStock' | 'lockTtlMs' | 'businessDelayMs' | 'segments' | 'faults' | 'load'>, t: TFunction): string {
  const { load } = settings;
  return joined(
    [
      ...stockSettings(settings, t),
      settings.segments !== undefined && t('run.segmented', { count: settings.segments, n: settings.segments }),
      t('run.connections', { count: load.connections, n: load.connections }),
      loadBound(load, t),
      ...(settings.faults ?? []).map((fault) => describeFaultSettings(fault, t)),
    ],
    t,
  );
}
