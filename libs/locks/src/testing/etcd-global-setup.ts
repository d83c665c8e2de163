import { startEtcd } from './test-etcd';

/** jest globalSetup of the locks project: one etcd for the run, gone when jest exits. */
export default function globalSetup(): void {
  startEtcd();
}
