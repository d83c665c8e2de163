import type { FastifyInstance } from 'fastify';
import { finished } from 'node:stream/promises';

/**
 * Reads (and drops) a body declared larger than the limit before Fastify refuses it with 413. Fastify
 * refuses on the Content-Length alone and closes the connection while the client is still writing
 * the body (it has had its 100 Continue, or never asked): the client's write fails (EPIPE), the unread
 * bytes reset the connection, often before the 413 is read, and a proxy in front answers 500. Read
 * to its end, the body is gone and the 413 arrives whole. Node's requestTimeout bounds how long a
 * client can keep writing.
 */
export function readOversizedBodies(fastify: FastifyInstance, limitBytes: number): void {
  fastify.addHook('onRequest', async (request) => {
    if (!(Number(request.headers['content-length']) > limitBytes)) return;
    request.raw.resume();
    await finished(request.raw);
  });
}
