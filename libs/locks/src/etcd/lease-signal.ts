import type { Lease } from 'etcd3';

/**
 * A signal raised when the lease is lost or may be: etcd says it expired or was revoked (the client's
 * 'lost'), or no keepalive has been confirmed for one TTL. The client itself only gives up after two
 * TTLs without an answer, one TTL after etcd has already deleted the lease's keys; the TTL is counted
 * here from when the last confirmed keepalive was sent, which is never later than etcd renewed it.
 */
export function leaseSignal(lease: Lease, ttlMs: number): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const sent: number[] = [];
  let expiry: NodeJS.Timeout | undefined;
  const expireAfter = (ms: number) => {
    clearTimeout(expiry);
    expiry = setTimeout(() => lose(new Error(`no etcd keepalive confirmed for ${ttlMs} ms: the lease may have expired`)), ms);
    expiry.unref();
  };
  const lose = (reason: unknown) => {
    stop();
    controller.abort(reason);
  };
  const fired = () => sent.push(Date.now());
  // Answers come back in the order the keepalives went out on the one stream.
  const succeeded = () => {
    const renewedFrom = sent.shift();
    if (renewedFrom !== undefined) expireAfter(renewedFrom + ttlMs - Date.now());
  };
  const stop = () => {
    clearTimeout(expiry);
    lease.off('lost', lose).off('keepaliveFired', fired).off('keepaliveSucceeded', succeeded);
  };
  lease.on('lost', lose).on('keepaliveFired', fired).on('keepaliveSucceeded', succeeded);
  expireAfter(ttlMs);
  return { signal: controller.signal, stop };
}
