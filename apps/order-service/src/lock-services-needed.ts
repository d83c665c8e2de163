/**
 * `node dist/lock-services-needed.js [strategy,…]` prints, as a JSON array, the lock services (etcd, …)
 * those strategies (all when none are named) declare they need: the launcher starts them before the
 * instances. The strategies' own descriptions say it; this only reads them out of the registry.
 */
import { isStrategyName, STRATEGY_NAMES, type StrategyName } from '@oversell/contracts';
import { lockServicesNeededBy } from '@oversell/stock';

const named = (process.argv[2] ?? '').split(',').filter(Boolean);
const unknown = named.filter((name) => !isStrategyName(name));
if (unknown.length) {
  process.stderr.write(`unknown strategy ${unknown.join(', ')}; valid: ${STRATEGY_NAMES.join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(JSON.stringify(lockServicesNeededBy(named.length ? (named as StrategyName[]) : STRATEGY_NAMES)) + '\n');
