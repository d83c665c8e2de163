import { pitfallShown, type PitfallPreset, type PitfallSide, type RunView } from '@oversell/contracts';

/**
 * What one side of a preset came to: still going, failed, or — once completed — whether it did what its
 * role says: the broken side showed the pitfall, or did not (missed); the fix stayed clean, or did not.
 */
export type PitfallVerdict = 'pending' | 'failed' | 'showed' | 'missed' | 'clean' | 'not-clean';

export function pitfallVerdict(preset: PitfallPreset, side: PitfallSide, run: RunView | undefined): PitfallVerdict {
  if (!run || run.status === 'queued' || run.status === 'running' || !run.result) return run?.status === 'failed' ? 'failed' : 'pending';
  const shown = pitfallShown(preset, side, run);
  if (side.role === 'broken') return shown ? 'showed' : 'missed';
  return shown ? 'not-clean' : 'clean';
}

export const VERDICT_TEXT: Record<PitfallVerdict, string> = {
  pending: 'waiting for the run…',
  failed: 'the run failed',
  showed: 'showed the pitfall',
  missed: 'did not show the pitfall this time',
  clean: 'stayed clean',
  'not-clean': 'did NOT stay clean',
};

/** The verdicts a presenter wants to see: the broken side showing its pitfall, the fix staying clean. */
export function isExpectedVerdict(verdict: PitfallVerdict): boolean {
  return verdict === 'showed' || verdict === 'clean';
}
