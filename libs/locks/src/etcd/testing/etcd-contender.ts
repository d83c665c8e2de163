/**
 * A separate process contending for one etcd lock, with its own etcd clients, as one service instance
 * would. argv: <lockKey> <counterKey> <clients> <rounds>. Each client loops `rounds` times: acquire →
 * read the counter from etcd → write it + 1 → release, and sends {grants: [fencing token, counter read]}.
 */
import { testEtcdClient } from '../../testing';
import { EtcdLock } from '../etcd-lock';

async function contend(lockKey: string, counterKey: string, rounds: number): Promise<[number, number][]> {
  const client = testEtcdClient();
  const lock = new EtcdLock(client);
  const grants: [number, number][] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const holding = await lock.acquire(lockKey, { waitMs: 30_000, leaseMs: 5000 });
      if (!holding) throw new Error(`${lockKey} not had within 30 s`);
      const counter = Number((await client.get(counterKey).string()) ?? 0);
      await client.put(counterKey).value(counter + 1);
      grants.push([holding.fencingToken!, counter]);
      if ((await holding.release()) !== true) throw new Error('released a lock it no longer held');
    }
    return grants;
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
