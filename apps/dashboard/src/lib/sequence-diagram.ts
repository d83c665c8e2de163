import type { TFunction } from 'i18next';
import type { SequenceStep, TracedOrder } from '@oversell/contracts';

/** Targets drawn as lifelines; the others (expiry, clock, fault) are notes over the order. */
const LIFELINES = ['lock', 'node1', 'node2', 'node3', 'node4', 'node5', 'stock', 'orders'] as const;
/** The second sale of a unit, highlighted. */
const SOLD_TWICE_FILL = 'rgb(255, 205, 210)';

/** Mermaid ends a statement at ';' and reads '#' as an entity: neither may reach it from a value. */
const safe = (text: string) => text.replace(/[;#]/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * A run's or a model's trace as Mermaid `sequenceDiagram` text: the orders (with their instance, for a
 * run), the lock key (or RedLock's nodes), the stock key and the orders table as participants, left of the orders; each step
 * a message in time order with its value, the lease's expiry and the faults as notes, and the second
 * sale of a unit inside a highlighted block.
 */
export function sequenceDiagramText(steps: readonly SequenceStep[], t: TFunction, orders: readonly TracedOrder[] = []): string {
  const actors = [...new Set(steps.map((s) => s.actor))].sort();
  const instanceOf = new Map(orders.map((o) => [o.actor, o.instance]));
  const lines = ['sequenceDiagram'];
  // The keys first: a diagram wider than its box scrolls sideways, and every message goes to one of them.
  for (const target of LIFELINES) if (steps.some((s) => s.target === target)) lines.push(`  participant ${target} as ${safe(t(`sequence.participant.${participantKey(target)}`, { target }))}`);
  for (const actor of actors) {
    const instance = instanceOf.get(actor);
    // Its instance on a second line: the column is as narrow as its name, not as wide as both.
    lines.push(`  participant ${actor} as ${instance ? `${actor}<br/>${safe(t('sequence.participant.onInstance', { instance }))}` : actor}`);
  }
  for (const step of steps) {
    const text = safe(stepText(step, t));
    const drawn = (LIFELINES as readonly string[]).includes(step.target) ? `  ${step.actor}->>${step.target}: ${text}` : `  Note over ${step.actor}: ${text}`;
    if (step.note !== 'sold-twice') {
      lines.push(drawn);
      continue;
    }
    const over = (LIFELINES as readonly string[]).includes(step.target) ? `${step.actor},${step.target}` : step.actor;
    lines.push(`  rect ${SOLD_TWICE_FILL}`, drawn, `  Note over ${over}: ${safe(t('sequence.step.soldTwice'))}`, '  end');
  }
  return `${lines.join('\n')}\n`;
}

function participantKey(target: string): 'lock' | 'stock' | 'orders' | 'node' {
  return target.startsWith('node') ? 'node' : (target as 'lock' | 'stock' | 'orders');
}

/** One step in words: the run's and the model's actions alike, anything else as its action and value. */
function stepText(step: SequenceStep, t: TFunction): string {
  const value = step.value === undefined ? '' : String(step.value);
  const fence = step.note?.startsWith('fence:') ? step.note.slice('fence:'.length) : undefined;
  if (step.target === 'expiry') return t('sequence.step.leaseRanOut', { actor: step.actor });
  if (step.target === 'fault') return step.action === 'resumes' ? t('sequence.step.resumes', { actor: step.actor }) : step.note ? t('sequence.step.faultAt', { kind: step.action, point: step.note }) : t('sequence.step.fault', { kind: step.action });
  if (step.target === 'clock') return t('sequence.step.clock', { action: step.action, value });
  switch (step.action) {
    case 'granted':
      return fence ? t('sequence.step.grantedFence', { lease: value, fence }) : t('sequence.step.granted', { lease: value });
    case 'GET':
      return t('sequence.step.get', { value });
    case 'SET':
      if (step.note === 'fenced') return t('sequence.step.setFenced', { value });
      if (step.note === 'lock-lost') return t('sequence.step.setLockLost');
      return t('sequence.step.set', { value });
    case 'INSERT':
      return t('sequence.step.insert');
    case 'released':
      return step.note === 'expired' ? t('sequence.step.releasedExpired', { value }) : t('sequence.step.released', { value });
    case 'DEL':
      return step.note === 'not-its-own' ? t('sequence.step.delOther', { value }) : t('sequence.step.other', { action: step.action, value });
    case 'timed out':
      return t('sequence.step.timedOut', { value });
    case 'requested':
      return t('sequence.step.requested');
    case 'renewed':
      return t('sequence.step.renewed', { lease: value });
    case 'UPDATE':
      // A failed optimistic version check: the version it read, 0 rows affected.
      return step.value === 0 && step.note?.startsWith('version:') ? t('sequence.step.versionCheckFailed', { version: step.note.slice('version:'.length) }) : t('sequence.step.other', { action: step.action, value });
    case 'lease lost':
      return t('sequence.step.leaseLost');
    case 'waits for ever':
      return t('sequence.step.waitsForEver');
    default:
      return value ? t('sequence.step.other', { action: step.action, value }) : step.action;
  }
}
