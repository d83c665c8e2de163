import { Gate } from '@oversell/locks/testing';
import type { FaultHook, FaultPoint } from '../fault-points';

/**
 * Keeps one order inside its section: the next order to reach `point`, and only that one, stops there
 * until the test resumes it. Orders placed meanwhile pass the point freely. Give `hook` to the test app.
 */
export class PauseNextOrder {
  private gate: Gate | undefined;

  constructor(private readonly point: FaultPoint) {}

  readonly hook: FaultHook = (point) => {
    if (point !== this.point || !this.gate) return;
    const gate = this.gate;
    this.gate = undefined;
    return gate.pass();
  };

  /** Starts `place` and resolves once its order is paused at the point; `resume()` lets it finish and answers its result. */
  async pause<T>(place: () => Promise<T>): Promise<{ resume(): Promise<T> }> {
    const gate = (this.gate = new Gate());
    const placed = place();
    await Promise.race([gate.arrived(), placed]);
    if (this.gate === gate) throw new Error(`the order finished without reaching ${this.point}`);
    return {
      resume: () => {
        gate.release();
        return placed;
      },
    };
  }
}
