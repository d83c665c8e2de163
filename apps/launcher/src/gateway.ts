import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import {
  answerClientErrors,
  frameworkErrorBody,
  hostCheck,
  isLoopbackHost,
  headersSetBy,
  LAB_HELMET_OPTIONS,
  lingerOnClose,
  misdirectedRequest,
  WILDCARD_BINDS,
  type ErrorBody,
  type ErrorCode,
} from '@oversell/contracts';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteShorthandOptions } from 'fastify';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import type { AnswerCount } from './answer-count';

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
  /**
   * How long an instance may take to answer before the gateway gives up (504 gateway_timeout). Default:
   * no limit. An order's time is bounded by the instance's own settings (the lock wait, the business
   * delay, the faults, up to minutes in a fault scenario); a proxy that gave up first would answer 504
   * for an order that was then placed.
   */
  upstreamTimeoutMs?: number;
  /**
   * Counts the answers it forwards with a 2xx, as a bare server counts its own (the bench's no-op
   * through the gateway). Without it, no hook is added: the demo pays nothing for it.
   */
  answers?: AnswerCount;
}

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
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? 0;
  const gateway = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, frameworkErrors: answerFrameworkError, clientErrorHandler: answerClientErrors(() => SECURITY_HEADERS) });
  // The lab's CSP (what the dashboard and the API docs load). First, so the gateway's own refusals (421,
  // 413) carry them too. helmet's headers do not depend on the request: recorded once and set on the
  // raw response (a forwarded answer's own, the same, replace them), as the instances do. @fastify/helmet
  // ran helmet anew for every request (docs/performance.md, "The gateway").
  const securityHeaders = Object.entries(SECURITY_HEADERS);
  gateway.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });
  // Its own answers in the lab's body (the routes' and reply-from's thrown errors, unknown paths).
  gateway.setErrorHandler(answerError);
  gateway.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = { statusCode: 404, error: 'not_found', message: `nothing at ${request.method} ${originForm(request.url).path}: the API is under /api (see /api/docs), the dashboard at /` };
    return reply.code(404).send(body);
  });
  // DNS rebinding: only the lab's own names (see hostCheck). An absolute-form target (`POST
  // http://evil.example/api/orders`, as sent to a proxy) names the host the request is for: it must
  // pass too, whatever the Host header says.
  const allowed = hostCheck([...(options.publicHosts ?? []), ...(WILDCARD_BINDS.includes(host) ? [] : [host])]);
  gateway.addHook('onRequest', async (request, reply) => {
    const { authority } = originForm(request.url);
    for (const name of [request.headers.host, ...(authority === undefined ? [] : [authority])]) {
      if (!allowed(name)) return reply.code(421).send(misdirectedRequest(name));
    }
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
  await gateway.register(replyFrom, { undici: { connections: 256, pipelining: 1, bodyTimeout: 0, headersTimeout: upstreamTimeoutMs } });
  // Bodies are passed through untouched; the instance parses and validates them.
  gateway.removeAllContentTypeParsers();
  gateway.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  let next = 0;
  const forward = (request: FastifyRequest, reply: FastifyReply, tried = 0): FastifyReply => {
    const upstreams = options.upstreams();
    if (upstreams.length === 0) {
      return reply.code(503).send({ statusCode: 503, error: 'store_unavailable', message: 'no order-service instance is up; the launcher is restarting them' });
    }
    // The path and query only: the target may be in absolute-form (`http://host/api/orders`). The query
    // goes on untouched: reply-from would decode it with the path, and a bad escape there (?x=%zz) threw.
    const { path } = originForm(request.url);
    const queryAt = path.indexOf('?');
    const [pathname, query] = queryAt < 0 ? [path, ''] : [path.slice(0, queryAt), path.slice(queryAt + 1)];
    if (dotSegment(pathname)) {
      const body: ErrorBody = { statusCode: 400, error: 'malformed_url', message: `${pathname} has a '..' segment (plain or percent-encoded): the gateway forwards no such path` };
      return reply.code(400).send(body);
    }
    const upstream = upstreams[next++ % upstreams.length];
    return reply.from(`${upstream}${pathname}`, {
      queryString: () => query,
      // undici refuses an Expect header (500 "expect header not supported"); Node's server has already
      // answered the client's Expect: 100-continue, and the body is on its way.
      rewriteRequestHeaders: (_request, headers) => {
        const { expect: _answered, ...forwarded } = headers;
        return forwarded;
      },
      // An instance that just died (a crash fault) is still in the list until the launcher sees its exit.
      // Nothing reached it: a read goes to the next instance; anything else is answered 503, retry. Any
      // other failure may have reached it (a timeout, a reset): upstreamFailure says so.
      onError: (_reply, { error }) => {
        if (!refusedConnection(error)) {
          const body = upstreamFailure(error, upstream, upstreamTimeoutMs);
          return reply.code(body.statusCode).send(body);
        }
        if ((request.method === 'GET' || request.method === 'HEAD') && tried + 1 < upstreams.length) return forward(request, reply, tried + 1);
        const body: ErrorBody = { statusCode: 503, error: 'instance_unavailable', message: `the instance at ${upstream} refused the connection (restarting?); nothing was delivered, retry` };
        return reply.code(503).header('retry-after', '1').send(body);
      },
    });
  };
  // A hook on the forwarding routes only, and only when asked: the dashboard's files are not counted.
  const { answers } = options;
  const counted: RouteShorthandOptions = answers
    ? {
        onResponse: (_request, reply, done) => {
          if (reply.statusCode >= 200 && reply.statusCode < 300) answers.answered(reply.elapsedTime);
          done();
        },
      }
    : {};
  for (const prefix of ['/api', '/health', '/metrics']) {
    gateway.all(prefix, counted, forward);
    gateway.all(`${prefix}/*`, counted, forward);
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

/**
 * An error from the instance after the request may have reached it: a timeout (reply-from's 504) or a
 * connection that broke before the answer. It may have been carried out, so the client is told how to
 * retry an order safely.
 */
function upstreamFailure(error: { code?: string; statusCode?: number; message?: string }, upstream: string, timeoutMs: number): ErrorBody {
  const retry = 'the request may still have been carried out (an order may have been placed): retry an order with the same idempotencyKey, or check the inventory first';
  if (error.statusCode === 504) return { statusCode: 504, error: 'gateway_timeout', message: `the instance at ${upstream} did not answer in time (${timeoutMs} ms); ${retry}` };
  return { statusCode: 502, error: 'bad_gateway', message: `the instance at ${upstream} failed before answering (${error.message ?? error.code ?? 'unknown error'}); ${retry}` };
}

/** An absolute-form target's scheme and authority; the rest is the path and query (maybe empty). */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)(.*)$/is;

/** The request target as path and query (origin-form), and the authority when it came in absolute-form. */
function originForm(url: string): { path: string; authority?: string } {
  const absolute = ABSOLUTE_FORM.exec(url);
  if (!absolute) return { path: url };
  const rest = absolute[2];
  return { authority: absolute[1], path: rest.startsWith('/') ? rest : `/${rest}` };
}

/** A '..' segment, decoded, as reply-from refuses it (by throwing): answered here with the lab's body. */
function dotSegment(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return true;
  }
  return decoded === '..' || decoded.includes('/..') || decoded.includes('../');
}

/** The gateway's own failures (thrown by a route, reply-from or the static files) in the lab's body. */
function answerError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  const clientCodes: Record<number, ErrorCode> = { 404: 'not_found', 413: 'payload_too_large', 415: 'unsupported_media_type' };
  const body: ErrorBody =
    status < 500 ? { statusCode: status, error: clientCodes[status] ?? 'validation_failed', message: error.message } : { statusCode: 500, error: 'internal_error', message: `the gateway failed: ${error.message}` };
  return reply.code(status).send(body);
}

/** helmet's headers with the lab's CSP, on every answer: routed, and given before any hook runs (frameworkErrors, clientErrorHandler). */
const SECURITY_HEADERS = headersSetBy(helmet(LAB_HELMET_OPTIONS));

/** Fastify's routing errors (a bad percent-escape: FST_ERR_BAD_URL) in the lab's body, with its security headers. */
function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const body = frameworkErrorBody(error);
  void reply.code(body.statusCode).headers(SECURITY_HEADERS).send(body);
}

/** reply-from reports undici's connect error as a 500 whose message carries the system code. */
function refusedConnection(error: { code?: string; message?: string }): boolean {
  return error.code === 'ECONNREFUSED' || /\bECONNREFUSED\b/.test(error.message ?? '');
}
