import { forkLoad } from './fork-load';
import { findK6, runK6Load } from './k6';
import type { LoadOptions, LoadSummary } from './summary';

/**
 * The load tool a lab run uses: k6 when the machine has it (K6_BIN or PATH), the Node runner in a child
 * process otherwise. Anything measured beside a run (the bench's bare Fastify no-op) goes through here
 * too, so both are driven by the same tool.
 */
export function driveLoad(options: LoadOptions, signal?: AbortSignal): Promise<LoadSummary> {
  return findK6() ? runK6Load(options, { signal }) : forkLoad(options, undefined, signal);
}
