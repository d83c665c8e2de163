import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { headersSetBy, LAB_HELMET_OPTIONS, RUN_TOKEN_HEADER } from '@oversell/contracts';
import helmet from 'helmet';

/**
 * Security headers on every answer (helmet, with the lab's CSP; no HSTS, the lab speaks plain http),
 * and CORS only for the origins in CORS_ORIGINS: none by default, so no other site's page can call
 * the API from a visitor's browser. helmet's headers do not depend on the request, so they are
 * recorded from its middleware once and set from that record: running the middleware for every
 * request cost an instance 1.7 % of its CPU under the no-op load, and 5 % through @fastify/helmet,
 * which built it anew each time (docs/performance.md). They go on the raw response, as helmet sets them, so
 * a server-sent event stream, written past Fastify's reply, carries them too.
 */
export async function useSecurityHeaders(app: NestFastifyApplication, corsOrigins: readonly string[]): Promise<void> {
  const headers = Object.entries(headersSetBy(helmet(LAB_HELMET_OPTIONS)));
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });
  if (corsOrigins.length) app.enableCors({ origin: [...corsOrigins], allowedHeaders: ['content-type', 'authorization', RUN_TOKEN_HEADER] });
}
