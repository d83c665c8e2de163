import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LAB_HELMET_OPTIONS, RUN_TOKEN_HEADER } from '@oversell/contracts';
import helmet from 'helmet';

/**
 * Security headers on every answer (helmet, with the lab's CSP; no HSTS, the lab speaks plain http),
 * and CORS only for the origins in CORS_ORIGINS: none by default, so no other site's page can call
 * the API from a visitor's browser. helmet's middleware is built once here: @fastify/helmet builds it
 * anew for every request (its CSP directives parsed again each time), which was ~5 % of an instance's
 * CPU under the no-op load (docs/performance.md).
 */
export async function useSecurityHeaders(app: NestFastifyApplication, corsOrigins: readonly string[]): Promise<void> {
  const setHeaders = helmet(LAB_HELMET_OPTIONS);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      // helmet ≥ 8.1 throws its errors instead of passing them on; Fastify answers a throwing hook with a 500.
      setHeaders(request.raw, reply.raw, () => done());
    });
  if (corsOrigins.length) app.enableCors({ origin: [...corsOrigins], allowedHeaders: ['content-type', 'authorization', RUN_TOKEN_HEADER] });
}
