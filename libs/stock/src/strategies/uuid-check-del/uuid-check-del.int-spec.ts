import type { LockEvent, ProductRunSettings } from '@oversell/contracts';
import { Gate } from '@oversell/locks/testing';
import type { FaultPoint } from '../../fault-points';
import { LockEvents } from '../../lock-events';
import { StockKeys } from '../../redis/stock-keys';
import { createStockTestApp, freshProductId, useStockTestApp, type StockTestApp } from '../../testing';

/** Long enough for the second holder to outlast the third order's whole wait (THIRD_WAIT_MS). */
const LOCK_TTL_MS = 600;
const THIRD_WAIT_MS = 150;

/**
 * Three orders on one product, placed so that the first holder's release runs after its lease has
 * run out and the second order holds the lock: the first pauses at the last moment before its lock
 * is deleted, until the second is inside its section; the second stays there until the test lets it go.
 */
class ReleaseAfterLease {
  /** The first order, paused before it deletes the lock, until the second order is inside. */
  readonly firstPaused = new Gate();
  /** The second order, held inside its section (having read the stock). */
  readonly secondInside = new Gate();
  /** The lock's value when each order read the stock, in order: the token of whoever held the lock then. */
  readonly holders: (string | null)[] = [];
  private pausedOne = false;

  constructor(
    private readonly runId: string,
    readonly lockKey: string,
    private readonly pauseAt: FaultPoint,
  ) {}

  async at(point: FaultPoint, settings: ProductRunSettings): Promise<void> {
    if (settings.runId !== this.runId) return;
    if (point === 'stock-read') {
      this.holders.push(await lab.app.redis.get(this.lockKey));
      if (this.holders.length === 2) {
        this.firstPaused.release();
        await this.secondInside.pass();
      }
    }
    if (point === this.pauseAt && !this.pausedOne) {
      this.pausedOne = true;
      await this.firstPaused.pass();
    }
  }
}

let scenario: ReleaseAfterLease | undefined;
const hooks = { faultHooks: [(point: FaultPoint, settings: ProductRunSettings) => scenario?.at(point, settings)] };
const lab = useStockTestApp(hooks);
/** Another instance, whose orders give up waiting for the lock after THIRD_WAIT_MS. */
let impatient: StockTestApp;
const events: LockEvent[] = [];

beforeAll(async () => {
  impatient = await createStockTestApp({ ...hooks, keyPrefix: lab.keyPrefix, instanceId: 'impatient', lockWaitTimeoutMs: THIRD_WAIT_MS });
  for (const app of [lab.app, impatient]) app.app.get(LockEvents).subscribe((_runId, _strategy, event) => events.push(event));
});

afterAll(() => impatient?.close());

const holdingOf = (token: string | null) => events.find((event) => `${event.instance}:${event.requestId}` === token);
const overlap = (a: LockEvent, b: LockEvent) => a.acquiredAt < b.releasedAt && b.acquiredAt < a.releasedAt;

/** Runs the three orders; the third (from the impatient instance) is placed once the first has let go. */
async function releaseAfterLease(strategy: 'uuid-check-del' | 'uuid-lua', pauseAt: FaultPoint) {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock: 2, strategy, lockTtlMs: LOCK_TTL_MS, businessDelayMs: 0 });
  const run = new ReleaseAfterLease(settings.runId, StockKeys.of(lab.keyPrefix, settings).lock, pauseAt);
  scenario = run;
  const order = (app: StockTestApp) => app.placement.place({ productId, quantity: 1, strategy }).then((placement) => placement.result.outcome);

  const first = order(lab.app);
  await run.firstPaused.arrived();
  const second = order(lab.app);
  const firstOutcome = await first;
  const lockAfterFirstRelease = await lab.app.redis.get(run.lockKey);
  const thirdOutcome = await order(impatient);
  run.secondInside.release();
  const secondOutcome = await second;
  return {
    run,
    outcomes: [firstOutcome, secondOutcome, thirdOutcome],
    lockAfterFirstRelease,
    inventory: await lab.app.inventory.inventory(productId),
    holdings: run.holders.map(holdingOf),
  };
}

describe('the release gap: the first holder lets go after its lease ran out and a second order took the lock', () => {
  it('uuid-check-del: the first holder\'s GET still saw its own token; its DEL then deletes the second\'s lock, a third order gets in beside the second, and both sell the same stock', async () => {
    const { run, outcomes, lockAfterFirstRelease, inventory, holdings } = await releaseAfterLease('uuid-check-del', 'release-checked-before-del');
    const [first, second, third] = holdings;
    console.log(`uuid-check-del release gap: ${JSON.stringify({ outcomes, sold: inventory.sold, oversold: inventory.oversold, remaining: inventory.remaining })}`);

    expect(run.holders).toHaveLength(3);
    expect(new Set(run.holders).size).toBe(3);
    // The second held the lock when it read the stock; once the first had let go, nobody did.
    expect(run.holders[1]).not.toBeNull();
    expect(lockAfterFirstRelease).toBeNull();
    expect(outcomes).toEqual(['sold', 'sold', 'sold']);
    expect(inventory).toMatchObject({ initialStock: 2, sold: 3, oversold: 1, storesAgree: false });
    // Two holders at once, and no lease ran out under either: the lock was deleted, not expired.
    expect(overlap(second!, third!)).toBe(true);
    expect(third!.acquiredAt - second!.acquiredAt).toBeLessThan(LOCK_TTL_MS);
    // The first holder's release reported success: its GET said the lock was still its own.
    expect(first!.expired).toBe(false);
    expect(second!.expired).toBe(true);
  });

  it('uuid-lua: its compare-and-delete is one script, so the second\'s lock survives the first\'s release and the third order cannot get in while the second holds it', async () => {
    const { run, outcomes, lockAfterFirstRelease, inventory, holdings } = await releaseAfterLease('uuid-lua', 'order-recorded');
    const [first, second] = holdings;
    console.log(`uuid-lua release gap: ${JSON.stringify({ outcomes, sold: inventory.sold, oversold: inventory.oversold, remaining: inventory.remaining })}`);

    expect(run.holders).toHaveLength(2);
    expect(run.holders[1]).not.toBeNull();
    expect(run.holders[1]).not.toBe(run.holders[0]);
    expect(lockAfterFirstRelease).toBe(run.holders[1]);
    expect(outcomes).toEqual(['sold', 'sold', 'lock_timeout']);
    expect(inventory).toMatchObject({ initialStock: 2, sold: 2, oversold: 0, remaining: 0, storesAgree: true });
    // The first's release found the lock taken (its lease had run out); the third never held it.
    expect(first!.expired).toBe(true);
    expect(second!.expired).toBe(false);
    expect(events.filter((event) => event.instance === 'impatient' && event.lockKey === run.lockKey)).toEqual([]);
  });
});
