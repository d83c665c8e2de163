import type { SequenceStep } from '@oversell/contracts';

/** `MSG <actor> <target> <action> <value or -> <note or ->`, as tools/model-check/lab.pml prints each step. */
const MESSAGE = /^\s*MSG (\S+) (\S+) (\S+) (\S+) (\S+)\s*$/;
const ORDER_LETTER = /^[A-Z]$/;
/** A process in the replay's final state: its pid (orders are pids 1 …, lab.pml's Store is 0) and whether it may end there. */
const FINAL_PROCESS = /^\s*\d+:\s+proc\s+(\d+) \(Order:\d+\).*\(state \d+\)(\s+<valid end state>)?\s*$/;

/**
 * The steps of a counterexample from spin's replay of its trail (`spin -T -t`, whose other lines are
 * skipped). The orders are renamed A, B, C in the order they first act, so every diagram starts with A
 * (spin's search picks the last process first). A `sold_twice` line marks the sale before it: that step
 * gets the note 'sold-twice'. A trail that ends in a deadlock (no assertion failed) ends with a step
 * 'waits for ever' for each order blocked in the final state.
 */
export function stepsOfReplay(replay: string): SequenceStep[] {
  const letters = new Map<string, string>();
  const order = (letter: string) => {
    if (!letters.has(letter)) letters.set(letter, String.fromCharCode('A'.charCodeAt(0) + letters.size));
    return letters.get(letter)!;
  };
  const steps: SequenceStep[] = [];
  for (const line of replay.split('\n')) {
    const match = MESSAGE.exec(line);
    if (!match) continue;
    const [, actorLetter, target, action, value, note] = match;
    const actor = order(actorLetter);
    if (action === 'sold_twice') {
      const sale = [...steps].reverse().find((step) => step.actor === actor);
      if (sale) sale.note = 'sold-twice';
      continue;
    }
    const step: SequenceStep = { actor, target, action: target === 'fault' ? action.replaceAll('_', '-') : action.replaceAll('_', ' ') };
    if (value !== '-') step.value = /^-?\d+$/.test(value) ? Number(value) : ORDER_LETTER.test(value) ? order(value) : value.replaceAll('_', ' ');
    if (note !== '-') step.note = note.replaceAll('_', '-');
    steps.push(step);
  }
  if (/assertion violated/.test(replay)) return steps;
  for (const line of replay.split('\n')) {
    const blocked = FINAL_PROCESS.exec(line);
    if (blocked && !blocked[2]) steps.push({ actor: order(String.fromCharCode('A'.charCodeAt(0) + Number(blocked[1]) - 1)), target: 'lock', action: 'waits for ever', note: 'deadlock' });
  }
  return steps;
}

/** A trace file's text: a JSON array, one step a line, so a changed interleaving reads as a small diff. */
export const traceJson = (steps: readonly SequenceStep[]) => `[\n${steps.map((step) => `  ${JSON.stringify(step)}`).join(',\n')}\n]\n`;
