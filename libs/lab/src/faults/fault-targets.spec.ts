import type { ErrorBody, FaultSettings } from '@oversell/contracts';
import { ApiError } from '../error-body';
import type { InstanceBeat } from '../instances/instance-registry';
import { targetFaults } from './fault-targets';

const beat = (instance: string, port: number): InstanceBeat => ({ instance, url: `http://127.0.0.1:${port}`, port, pid: port, rssBytes: 0, at: 0 });
const live = [beat('low', 3001), beat('high', 3002)];
const crash: FaultSettings = { kind: 'crash', at: 'lock-acquired', once: true };

/** The 400 targetFaults answers, as the API's body names it. */
function refusal(run: () => unknown): ErrorBody {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(400);
    return (error as ApiError).getResponse() as ErrorBody;
  }
  throw new Error('not refused');
}

describe('a crash never targets the instance running the run', () => {
  it.each(['low', 'high'])('without instance, the executor %s is spared and every other instance is targeted', (runner) => {
    expect(targetFaults([crash], live, runner)).toEqual([{ ...crash, sparedInstanceId: runner }]);
  });

  it('naming another instance targets it', () => {
    expect(targetFaults([{ ...crash, instance: 1 }], live, 'low')).toEqual([{ ...crash, instance: 1, instanceId: 'high' }]);
  });

  it('naming the executor itself is refused, saying why and what to do', () => {
    const body = refusal(() => targetFaults([{ ...crash, instance: 0 }], live, 'low'));
    expect(body.field).toBe('faults[0].instance');
    expect(body.message).toMatch(/the instance running the run is never crashed; name another instance, or omit instance/);
  });

  it('needs at least 2 live instances, with or without a runner', () => {
    for (const runner of [undefined, 'low']) {
      const body = refusal(() => targetFaults([crash], [live[0]], runner));
      expect(body.field).toBe('faults[0].kind');
      expect(body.message).toMatch(/the instance running the run is never crashed; start at least 2/);
    }
  });

  it('other faults without instance still target every instance, the runner included', () => {
    const pause: FaultSettings = { kind: 'pause', at: 'stock-read', durationMs: 5 };
    expect(targetFaults([pause], live, 'low')).toEqual([pause]);
  });
});

describe('a failover needs its targets to keep their locks on a Sentinel group', () => {
  const failover: FaultSettings = { kind: 'failover', at: 'lock-acquired', once: true };
  const onSentinels = live.map((b) => ({ ...b, lockSentinels: true }));

  it('is taken when every instance it targets has one', () => {
    expect(targetFaults([failover], onSentinels, 'low')).toEqual([failover]);
  });

  it('is refused naming the instances without one, and the variable that gives one', () => {
    const body = refusal(() => targetFaults([failover], [onSentinels[0], live[1]], 'low'));
    expect(body.field).toBe('faults[0].kind');
    expect(body.message).toMatch(/a failover needs instances whose locks are on a Sentinel group \(REDIS_SENTINELS\); high \(port 3002\) were started without one/);
  });
});

describe('a node restart needs its targets to have RedLock nodes', () => {
  const restart: FaultSettings = { kind: 'node-restart', at: 'lock-acquired', once: true };
  const withNodes = live.map((b) => ({ ...b, redlockNodes: true }));

  it('is taken when every instance it targets has them', () => {
    expect(targetFaults([restart], withNodes, 'low')).toEqual([restart]);
  });

  it('is refused naming the instances without them, and the variable that gives them', () => {
    const body = refusal(() => targetFaults([restart], [withNodes[0], live[1]], 'low'));
    expect(body.field).toBe('faults[0].kind');
    expect(body.message).toMatch(/a node-restart needs instances with RedLock nodes \(REDLOCK_NODES\); high \(port 3002\) were started without them/);
  });
});

describe('a fault keeps the instance it named when its run was created', () => {
  const pause: FaultSettings = { kind: 'pause', at: 'stock-read', durationMs: 5, instance: 0 };

  it('resolves the index to an id at creation, and at the start targets that id wherever it now sits in port order', () => {
    const [created] = targetFaults([pause], live);
    expect(created).toEqual({ ...pause, instanceId: 'low' });
    // A new instance with a lower port came up while the run waited: index 0 is someone else now.
    expect(targetFaults([created], [beat('newcomer', 3000), ...live], 'high')).toEqual([{ ...pause, instanceId: 'low' }]);
  });

  it('is refused at the start once that instance is gone, even when another now holds its index', () => {
    const [created] = targetFaults([pause], live);
    const body = refusal(() => targetFaults([created], [live[1]], 'high'));
    expect(body.field).toBe('faults[0].instance');
    expect(body.message).toBe('faults[0].instance is 0, low when the run was created, which is no longer live');
  });
});
