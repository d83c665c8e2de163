import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';

/**
 * The lab's single entry point: forwards /api, /health and /metrics round-robin to the instances
 * (streaming, so server-sent events pass through) and serves the built dashboard at /.
 */
export async function startGateway(options: { port: number; host?: string; upstreams: () => readonly string[]; dashboardDir: string }): Promise<FastifyInstance> {
  const gateway = Fastify({ logger: false, bodyLimit: 1_048_576 });
  // No body timeout: an SSE stream of a long run stays open for minutes.
  await gateway.register(replyFrom, { undici: { connections: 256, pipelining: 1, bodyTimeout: 0, headersTimeout: 30_000 } });
  // Bodies are passed through untouched; the instance parses and validates them.
  gateway.removeAllContentTypeParsers();
  gateway.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  let next = 0;
  const forward = (request: FastifyRequest, reply: FastifyReply) => {
    const upstreams = options.upstreams();
    if (upstreams.length === 0) {
      return reply.code(503).send({ statusCode: 503, error: 'store_unavailable', message: 'no order-service instance is up; the launcher is restarting them' });
    }
    return reply.from(`${upstreams[next++ % upstreams.length]}${request.url}`);
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
  await gateway.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  return gateway;
}
