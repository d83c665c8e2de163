import { useEffect, useReducer, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RunEvent, RunView } from '@oversell/contracts';
import { api } from '../api/client';
import { queryKeys, useRun } from '../api/queries';
import { applyRunEvent, EMPTY_LIVE_RUN, isStreamDone, type LiveRun } from '../lib/live-run';
import { isInProgress } from '../lib/run-status';

const EVENT_TYPES: RunEvent['type'][] = ['status', 'progress', 'lock', 'fault', 'result'];

export interface LiveRunState {
  run?: RunView;
  /** What the event stream reported since the run was opened (empty for a finished run). */
  live: LiveRun;
  error: Error | null;
  isLoading: boolean;
}

/**
 * A run as stored (GET /api/runs/:id) plus, while it is queued or running, its server-sent events.
 * If the stream breaks, the stored view is polled instead. State belongs to one run: mount the
 * component that uses this with `key={runId}`.
 */
export function useLiveRun(runId: string): LiveRunState {
  const queryClient = useQueryClient();
  const [streamBroken, setStreamBroken] = useState(false);
  const query = useRun(runId, streamBroken);
  const [live, dispatch] = useReducer(applyRunEvent, EMPTY_LIVE_RUN);
  // False once the result arrives or the run fails, and also if the stream breaks (then the run is polled).
  const listen = query.data !== undefined && isInProgress(query.data) && !streamBroken && !isStreamDone(live);

  useEffect(() => {
    if (!listen) return;
    const source = new EventSource(api.runEventsUrl(runId));

    const onMessage = (message: MessageEvent<string>) => {
      let payload: RunEvent;
      try {
        payload = JSON.parse(message.data) as RunEvent;
      } catch {
        return; // skipped, not fatal: the next progress message supersedes it
      }
      // `event:` names the type; it wins over the payload's so the listener and the reducer agree.
      const event = { ...payload, type: message.type } as RunEvent;
      dispatch(event);
      const failed = event.type === 'status' && event.status === 'failed';
      // The server ends the stream after these; closing first keeps that end from counting as a broken stream.
      if (event.type === 'result' || failed) source.close();
      if (event.type === 'result') {
        queryClient.setQueryData(queryKeys.run(runId), event.run);
        void queryClient.invalidateQueries({ queryKey: queryKeys.runs, exact: true });
      } else if (failed) {
        // The failure reason and the history list come from the REST views.
        void queryClient.invalidateQueries({ queryKey: queryKeys.runs });
      }
    };
    const onError = () => {
      // EventSource would reconnect forever on its own; polling the stored view is easier to reason about.
      source.close();
      setStreamBroken(true);
      void queryClient.invalidateQueries({ queryKey: queryKeys.run(runId) });
    };

    for (const type of EVENT_TYPES) source.addEventListener(type, onMessage as EventListener);
    source.addEventListener('error', onError);
    return () => source.close();
  }, [listen, runId, queryClient]);

  return { run: query.data, live, error: query.error, isLoading: query.isLoading };
}
