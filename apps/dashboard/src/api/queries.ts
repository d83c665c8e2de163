import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RunBatchRequest, RunParams, RunView } from '@oversell/contracts';
import { isInProgress } from '../lib/run-status';
import { runScenarios } from '../lib/scenarios';
import { startInOrder } from '../lib/start-in-order';
import { api } from './client';

/** How many runs the history and compare views look at. */
export const RUN_HISTORY_LIMIT = 50;
const POLL_MS = 1000;
/**
 * A run is re-read this often even while its event stream is open: a proxy that buffers the stream, or a
 * stream that stays silent, must not leave the page showing "running" forever.
 */
const STREAM_SAFETY_POLL_MS = 5000;

export const queryKeys = {
  strategies: ['strategies'] as const,
  labChoosingALock: ['lab-figures', 'choosing-a-lock'] as const,
  scenarios: ['scenarios'] as const,
  runs: ['runs'] as const,
  run: (id: string) => ['runs', id] as const,
  inventory: (productId: number) => ['products', productId, 'inventory'] as const,
};

export function useStrategies() {
  // Strategy descriptions are fixed for the life of the service.
  return useQuery({ queryKey: queryKeys.strategies, queryFn: api.strategies, staleTime: Infinity });
}

/** This lab's own figures for the comparison, read again when the page is opened (a bench may have run since). */
export function useLabChoosingALock() {
  return useQuery({ queryKey: queryKeys.labChoosingALock, queryFn: api.labChoosingALock, staleTime: 60_000 });
}

/** The scenarios a run can be filled from (not the load CLI's own). */
export function useScenarios() {
  return useQuery({ queryKey: queryKeys.scenarios, queryFn: api.scenarios, staleTime: 60_000, select: runScenarios });
}

/** Run history, polled while any listed run is still queued or running so views fill in as runs finish. */
export function useRuns() {
  return useQuery({
    queryKey: queryKeys.runs,
    queryFn: () => api.runs(RUN_HISTORY_LIMIT),
    refetchInterval: (query) => (query.state.data?.some(isInProgress) ? POLL_MS : false),
  });
}

/**
 * One run, re-read while it is queued or running: every second when its event stream broke (the REST view
 * is then the only way to see it progress), slowly otherwise.
 */
export function useRun(id: string, streamBroken: boolean) {
  return useQuery({
    queryKey: queryKeys.run(id),
    queryFn: () => api.run(id),
    refetchInterval: (query) =>
      query.state.data && isInProgress(query.state.data) ? (streamBroken ? POLL_MS : STREAM_SAFETY_POLL_MS) : false,
  });
}

/** A run read once (or from the cache), for what needs its settings and not its progress: the lab form. */
export function useStoredRun(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.run(id ?? ''), queryFn: () => api.run(id ?? ''), enabled: id !== undefined });
}

export function useInventory(productId: number) {
  return useQuery({ queryKey: queryKeys.inventory(productId), queryFn: () => api.inventory(productId) });
}

function useRunCreated() {
  const queryClient = useQueryClient();
  return (runs: RunView[]) => {
    for (const run of runs) queryClient.setQueryData(queryKeys.run(run.id), run);
    void queryClient.invalidateQueries({ queryKey: queryKeys.runs, exact: true });
  };
}

export function useStartRun() {
  const onCreated = useRunCreated();
  return useMutation({ mutationFn: (params: RunParams) => api.startRun(params), onSuccess: (run) => onCreated([run]) });
}

/** Queues runs one after the other, in order (see startInOrder): resolves with those queued, and the refusal that stopped the rest. */
export function useStartRuns() {
  const onCreated = useRunCreated();
  return useMutation({
    mutationFn: (params: RunParams[]) => startInOrder(params, api.startRun),
    onSuccess: (started) => onCreated(started.runs),
  });
}

export function useStartBatch() {
  const onCreated = useRunCreated();
  return useMutation({
    mutationFn: (batch: RunBatchRequest) => api.startBatch(batch),
    onSuccess: (view) => onCreated(view.runs),
  });
}
