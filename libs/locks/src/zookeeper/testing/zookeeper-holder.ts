/**
 * A separate process that takes one ZooKeeper lock on a short session, says so ({held: fencing token})
 * and keeps it until it is killed: the dead holder whose node must vanish at session expiry.
 * argv: <root> <lockKey> <sessionTimeoutMs>.
 */
import { testZookeeperClient } from '../../testing';
import { ZookeeperLock } from '../zookeeper-lock';

async function main(): Promise<void> {
  const [root, lockKey, sessionTimeout] = process.argv.slice(2);
  const client = await testZookeeperClient({ sessionTimeout: Number(sessionTimeout) });
  const holding = await new ZookeeperLock(client, root).acquire(lockKey, { waitMs: 0, leaseMs: 0 });
  if (!holding) throw new Error(`${lockKey} was not free`);
  process.send!({ held: holding.fencingToken });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
