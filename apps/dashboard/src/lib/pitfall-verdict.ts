import type { PitfallVerdict } from '@oversell/contracts';

/** The verdict itself is shared with `npm run pitfalls` (contracts); its wording is the dashboard's. */
export { isExpectedVerdict, pitfallVerdict, type PitfallVerdict } from '@oversell/contracts';

export const VERDICT_TEXT: Record<PitfallVerdict, string> = {
  pending: 'waiting for the run…',
  failed: 'the run failed',
  showed: 'showed the pitfall',
  missed: 'did not show the pitfall this time',
  clean: 'stayed clean',
  'not-clean': 'did NOT stay clean',
};
