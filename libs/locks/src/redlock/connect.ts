import type { ConnectedLock } from '../connected-lock';
import { connectQuorumLock } from '../redis-nodes';
import { redlockDelayedRestart } from './redlock-delayed-restart.lock';
import { redlock } from './redlock.lock';

/** RedLock by hand on the independent Redis nodes at `addresses` (host:port, comma-separated). */
export const connectRedlock = (addresses: string): ConnectedLock => connectQuorumLock(addresses, (nodes) => redlock(nodes));

/** RedLock with the delayed restart as its nodes' discipline, on the nodes at `addresses`. */
export const connectRedlockDelayedRestart = (addresses: string): ConnectedLock => connectQuorumLock(addresses, redlockDelayedRestart);
