/**
 * `node dist/strategy-descriptions.js` prints every strategy's description, as GET /api/strategies
 * serves them, as one JSON array, without starting the service: `npm run choosing-a-lock` writes its
 * doc from them.
 */
import { describeStrategiesOffline } from '@oversell/stock';

process.stdout.write(JSON.stringify(describeStrategiesOffline()) + '\n');
