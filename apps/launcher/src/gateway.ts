import helmet from '@fastify/helmet';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import { hostCheck, isLoopbackHost, LAB_CSP_DIRECTIVES, misdirectedRequest, type ErrorBody } from '@oversell/contracts';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { lingerOnClose } from './linger-on-close';

export interface GatewayOptions {
  port: number;
  /** The bind address, loopback by default; beyond it the instances must require ADMIN_TOKEN. */
  host?: string;
  /** The lab's ADMIN_TOKEN, which the instances check; the gateway passes Authorization through. */
  adminToken?: string;
  /**
   * Names the lab is reached by beyond loopback (e.g. lab.example.org, 192.168.1.20); with the loopback
   * names and a specific bind address, the only Host headers the gateway answers.
   */
  publicHosts?: readonly string[];
  upstreams: () => readonly string[];
  dashboardDir: string;
}

const WILDCARD_BINDS = ['0.0.0.0', '::'];
/** No instance takes a body over 1 MiB (the ceiling of its BODY_LIMIT_BYTES). */
const BODY_LIMIT_BYTES = 1_048_576;

/** Beyond loopback the admin actions must need a token: without one the lab does not start. */
export function assertAdminTokenFor(host: string, adminToken: string | undefined): void {
  if (!isLoopbackHost(host) && !adminToken) {
    throw new Error(`the gateway would listen on ${host}, beyond loopback, with admin actions (resets, runs, break-locks) open to anyone: set ADMIN_TOKEN (16 or more characters)`);
  }
}

/**
 * The lab's single entry point: forwards /api, /health and /metrics round-robin to the instances
 * (streaming, so server-sent events pass through) and serves the built dashboard at /.
 */
export async function startGateway(options: GatewayOptions): Promise<FastifyInstance> {
  const host = options.host ?? '127.0.0.1';
  assertAdminTokenFor(host, options.adminToken);
  const gateway = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES });
  // The lab's CSP (what the dashboard and the API docs load); no HSTS, the lab speaks plain http. First, so
  // the gateway's own refusals (421, 413) carry them too.
  await gateway.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: LAB_CSP_DIRECTIVES }, strictTransportSecurity: false });
  // DNS rebinding: only the lab's own names (see hostCheck).
  const allowed = hostCheck([...(options.publicHosts ?? []), ...(WILDCARD_BINDS.includes(host) ? [] : [host])]);
  gateway.addHook('onRequest', async (request, reply) => {
    if (!allowed(request.headers.host)) return reply.code(421).send(misdirectedRequest(request.headers.host));
  });
  // Bodies are streamed to the instance unread, so the body limit above does not apply to them. One
  // declared larger than any instance takes is refused here, without reading it: forwarded, the
  // instance would cut it off mid-stream and the client would get no answer at all.
  gateway.addHook('onRequest', async (request, reply) => {
    const declared = Number(request.headers['content-length']);
    if (!(declared > BODY_LIMIT_BYTES)) return;
    lingerOnClose(request.raw.socket, BODY_LIMIT_BYTES);
    const body: ErrorBody = { statusCode: 413, error: 'payload_too_large', message: `the body is ${declared} bytes; the lab takes at most ${BODY_LIMIT_BYTES}` };
    return reply.code(413).header('connection', 'close').send(body);
  });
  // No body timeout: an SSE stream of a long run stays open for minutes.
  await gateway.register(replyFrom, { undici: { connections: 256, pipelining: 1, bodyTimeout: 0, headersTimeout: 30_000 } });
  // Bodies are passed through untouched; the instance parses and validates them.
  gateway.removeAllContentTypeParsers();
  gateway.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  let next = 0;
  const forward = (request: FastifyRequest, reply: FastifyReply, tried = 0): FastifyReply => {
    const upstreams = options.upstreams();
    if (upstreams.length === 0) {
      return reply.code(503).send({ statusCode: 503, error: 'store_unavailable', message: 'no order-service instance is up; the launcher is restarting them' });
    }
    const upstream = upstreams[next++ % upstreams.length];
    return reply.from(`${upstream}${request.url}`, {
      // undici refuses an Expect header (500 "expect header not supported"); Node's server has already
      // answered the client's Expect: 100-continue, and the body is on its way.
      rewriteRequestHeaders: (_request, headers) => {
        const { expect: _answered, ...forwarded } = headers;
        return forwarded;
      },
      // An instance that just died (a crash fault) is still in the list until the launcher sees its exit.
      // Nothing reached it: a read goes to the next instance; anything else is answered 503, retry.
      onError: (_reply, { error }) => {
        if (!refusedConnection(error)) return reply.send(error);
        if ((request.method === 'GET' || request.method === 'HEAD') && tried + 1 < upstreams.length) return forward(request, reply, tried + 1);
        const body: ErrorBody = { statusCode: 503, error: 'instance_unavailable', message: `the instance at ${upstream} refused the connection (restarting?); nothing was delivered, retry` };
        return reply.code(503).header('retry-after', '1').send(body);
      },
    });
  };
  for (const prefix of ['/api', '/health', '/metrics']) {
    gateway.all(prefix, forward);
    gateway.all(`${prefix}/*`, forward);
  }

  if (existsSync(options.dashboardDir)) {
    await gateway.register(fastifyStatic, { root: options.dashboardDir, prefix: '/' });
  } else {
    gateway.get('/', (_request, reply) =>
      reply.type('text/plain').send(`The dashboard is not built (${options.dashboardDir} is missing): run npx nx run dashboard:build. The API is at /api/docs.\n`),
    );
  }
  await gateway.listen({ port: options.port, host });
  return gateway;
}

/** reply-from reports undici's connect error as a 500 whose message carries the system code. */
function refusedConnection(error: { code?: string; message?: string }): boolean {
  return error.code === 'ECONNREFUSED' || /\bECONNREFUSED\b/.test(error.message ?? '');
}
