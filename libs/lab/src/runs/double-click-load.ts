import { RUN_LIMITS, type RunParams } from '@oversell/contracts';
import { doubleClickOf } from '@oversell/loadtests';
import { ApiError } from '../error-body';

/**
 * A double-click fault changes what the load is (each buyer sends every order `copies` times at once),
 * so two loads valid on their own are not valid with it: refused here with a 400, where the run would
 * otherwise be queued and fail once its load starts (or hold connections × copies requests in flight).
 */
export function checkDoubleClickLoad({ load, faults }: Pick<RunParams, 'load' | 'faults'>): void {
  const doubleClick = doubleClickOf(faults);
  if (!doubleClick) return;
  if (load.arrivalRate !== undefined) {
    const message = {
      en: 'load.arrivalRate cannot be combined with a double-click fault: its buyers click again once every copy is answered (a closed model)',
      'zh-CN': 'load.arrivalRate 不能与 double-click 故障同时使用：它的买家要等每一份都收到响应后才再次点击（封闭模型）',
    };
    throw new ApiError(400, 'validation_failed', message, { field: 'load.arrivalRate' });
  }
  // As many buyers as connections, or as orders meant if fewer (runDoubleClicks), each with every copy in flight.
  const inFlight = Math.min(load.connections, load.totalRequests ?? Infinity) * doubleClick.copies;
  if (inFlight > RUN_LIMITS.maxConnections) {
    const max = RUN_LIMITS.maxConnections;
    const message = { en: `load.connections × the double-click's copies is ${inFlight} requests in flight at once; at most ${max}`, 'zh-CN': `load.connections × double-click 的份数 = 同时在途的 ${inFlight} 个请求；最多允许 ${max} 个` };
    throw new ApiError(400, 'validation_failed', message, { field: 'load.connections' });
  }
}
