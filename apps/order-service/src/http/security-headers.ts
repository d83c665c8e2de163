import helmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LAB_CSP_DIRECTIVES, RUN_TOKEN_HEADER } from '@oversell/contracts';

/**
 * Security headers on every answer (helmet, with the lab's CSP; no HSTS, the lab speaks plain http),
 * and CORS only for the origins in CORS_ORIGINS: none by default, so no other site's page can call
 * the API from a visitor's browser.
 */
export async function useSecurityHeaders(app: NestFastifyApplication, corsOrigins: readonly string[]): Promise<void> {
  await app.register(helmet, { contentSecurityPolicy: { useDefaults: false, directives: LAB_CSP_DIRECTIVES }, strictTransportSecurity: false });
  if (corsOrigins.length) app.enableCors({ origin: [...corsOrigins], allowedHeaders: ['content-type', 'authorization', RUN_TOKEN_HEADER] });
}
