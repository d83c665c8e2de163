import { startLockServices } from '../lab/lock-services';

/**
 * jest globalSetup: the lock services every registered strategy needs (etcd, ZooKeeper, a Redis
 * Cluster), started once for the whole run and named in the environment, so each lab a test starts uses
 * them instead of starting its own (a service whose variable is set is taken as given). They stop when
 * jest exits (the scripts' --owner). lock-services.int-spec clears the variables to test a lab's own start.
 */
export default async function globalSetup(): Promise<void> {
  const { env } = await startLockServices(undefined, process.env, (line) => process.stderr.write(`${line}\n`));
  Object.assign(process.env, env);
}
