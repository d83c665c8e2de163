/**
 * An OS process that opens a stock app and closes it at once, `argv[3]` times (argv: key prefix, count),
 * then exits 0: the order-write queue's connections are still starting when the app closes. A library
 * error raised after that close (BullMQ 5 emitted its connection's "Connection is closed" with no
 * listener left) kills the process instead.
 */
import 'reflect-metadata';
import { createStockTestApp } from './stock-test-app';

const [keyPrefix, count] = process.argv.slice(2) as [string, string];

async function main(): Promise<void> {
  for (let i = 0; i < Number(count); i++) {
    const app = await createStockTestApp({ keyPrefix, instanceId: `open-and-close-${process.pid}` });
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
