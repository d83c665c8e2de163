/**
 * An OS process whose order writer SIGKILLs it the moment a batch reaches a fault point (argv: key
 * prefix, fault point): a writer that dies mid-batch, with no goodbye to Redis or MySQL. It places no
 * order; it takes the queued ones the test left waiting.
 */
import 'reflect-metadata';
import type { FaultPoint } from '../fault-points';
import { createStockTestApp } from './stock-test-app';

const [keyPrefix, point] = process.argv.slice(2) as [string, FaultPoint];
// The test's ends: gone with it, if it never reaches the point.
process.on('disconnect', () => process.exit(0));

createStockTestApp({ keyPrefix, instanceId: `crashing-writer-${process.pid}`, faultHooks: [(at) => void (at === point && process.kill(process.pid, 'SIGKILL'))] }).catch((error) => {
  console.error(error);
  process.exit(1);
});
