import { lingerOnClose } from '@oversell/contracts';
import type { FastifyInstance } from 'fastify';
import { finished } from 'node:stream/promises';

/** Bodies up to this many times the limit are read to their end; beyond, the connection is closed. */
export const OVERSIZED_READ_FACTOR = 64;

/**
 * Reads (and drops) a body declared larger than the limit before Fastify refuses it with 413. Fastify
 * refuses on the Content-Length alone and closes the connection while the client is still writing
 * the body (it has had its 100 Continue, or never asked): the client's write fails (EPIPE), the unread
 * bytes reset the connection, often before the 413 is read, and a proxy in front answers 500. Read
 * to its end, the body is gone and the 413 arrives whole.
 *
 * Only up to `capBytes` (OVERSIZED_READ_FACTOR × the limit): a body declared larger is not read at all.
 * Fastify answers its 413 with `Connection: close` at once, and the close lingers (as nginx's does):
 * the 413 is sent and the sending side shut, then what the client still sends is read and dropped,
 * up to `capBytes` more, until the client ends or a few seconds passed; only then is the socket
 * destroyed (lingerOnClose).
 * Closed at once, the unread bytes would reset the connection and the client could lose the 413 it
 * had not read yet. A body without a Content-Length (chunked) gets the same close when Fastify finds
 * it over the limit.
 */
export function readOversizedBodies(fastify: FastifyInstance, limitBytes: number, capBytes = limitBytes * OVERSIZED_READ_FACTOR): void {
  // A callback hook, not an async one: every request passes here, nearly all of them straight through.
  fastify.addHook('onRequest', (request, _reply, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isNaN(declared) && request.headers['transfer-encoding']) lingerOnClose(request.raw.socket, capBytes);
    else if (declared > capBytes) lingerOnClose(request.raw.socket, capBytes);
    else if (declared > limitBytes) {
      request.raw.resume();
      return void finished(request.raw).then(() => done(), done);
    }
    done();
  });
}
