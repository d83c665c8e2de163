import type { ConnectedLock } from '../connected-lock';
import { connectQuorumLock } from '../redis-nodes';
import { redlockLib } from './redlock-lib.lock';

/** @sesamecare-oss/redlock on the independent Redis nodes at `addresses` (host:port, comma-separated). */
export const connectRedlockLib = (addresses: string): ConnectedLock => connectQuorumLock(addresses, redlockLib);
