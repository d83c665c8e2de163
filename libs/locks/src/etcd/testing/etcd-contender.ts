/**
 * A separate process contending for one etcd lock, with its own etcd clients, as one service instance
 * would. argv: <lockKey> <counterKey> <clients> <rounds>. Each client loops `rounds` times: acquire →
 * read the counter from etcd → write it + 1 → release, and sends {grants: [fencing token, counter read]}.
 */
import { counterRounds, testEtcdClient } from '../../testing';
import { EtcdLock } from '../etcd-lock';

async function contend(lockKey: string, counterKey: string, rounds: number): Promise<[number, number][]> {
  const client = testEtcdClient();
  try {
    return await counterRounds(new EtcdLock(client), lockKey, {
      read: async () => Number((await client.get(counterKey).string()) ?? 0),
      write: (value) => client.put(counterKey).value(value).exec(),
    }, rounds);
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const [lockKey, counterKey, clients, rounds] = process.argv.slice(2);
  const all = await Promise.all(Array.from({ length: Number(clients) }, () => contend(lockKey, counterKey, Number(rounds))));
  process.send!({ grants: all.flat() }, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
