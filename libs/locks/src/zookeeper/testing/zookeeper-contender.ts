/**
 * A separate process contending for one ZooKeeper lock, with its own ZooKeeper sessions, as one service
 * instance would. argv: <root> <lockKey> <counterPath> <clients> <rounds>. Each client loops `rounds`
 * times: acquire → read the counter node → write it + 1 → release, and sends {grants: [fencing token,
 * counter read]}.
 */
import { counterRounds, testZookeeperClient } from '../../testing';
import { zk } from '../zookeeper-calls';
import { ZookeeperLock } from '../zookeeper-lock';

async function contend(root: string, lockKey: string, counterPath: string, rounds: number): Promise<[number, number][]> {
  const client = await testZookeeperClient();
  try {
    return await counterRounds(new ZookeeperLock(client, root), lockKey, {
      read: async () => Number(String(await zk<Buffer>((done) => client.getData(counterPath, done)))),
      write: (value) => zk((done) => client.setData(counterPath, Buffer.from(String(value)), done)),
    }, rounds);
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const [root, lockKey, counterPath, clients, rounds] = process.argv.slice(2);
  const all = await Promise.all(Array.from({ length: Number(clients) }, () => contend(root, lockKey, counterPath, Number(rounds))));
  process.send!({ grants: all.flat() }, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
