/** What `npm run aof-kill` (commands/aof-kill.ts) found, one record per appendfsync mode, and its markdown. */
export const AOF_KILL_MODES = ['everysec', 'always'] as const;

export interface AofKillRecord {
  appendfsync: (typeof AOF_KILL_MODES)[number];
  /** From the grant's reply to the SIGKILL, ms: well inside the second an everysec fsync may wait. */
  killedAfterReplyMs: number;
  /** The grant as the restarted node read it back from its AOF. */
  grantAfterRestart: 'kept' | 'lost';
  pttlAfterRestartMs: number;
}

export function aofKillMarkdown(records: readonly AofKillRecord[]): string {
  return [
    'A RedLock node (appendonly yes) SIGKILLed right after it answered a grant, restarted on its AOF.',
    '',
    '| appendfsync | killed after the reply | grant after the restart | PTTL after the restart |',
    '|---|---:|---|---:|',
    ...records.map((r) => `| ${r.appendfsync} | ${r.killedAfterReplyMs.toFixed(2)} ms | ${r.grantAfterRestart} | ${r.pttlAfterRestartMs} ms |`),
  ].join('\n');
}
