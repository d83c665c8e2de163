import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { appConfig, type AppConfig } from './config/configuration';
import { validateEnv } from './config/validate-env';
import { ErrorBodyFilter } from './http/error-body.filter';
import { answerClientErrorsOf, answerFrameworkErrors } from './http/framework-errors';
import { useStrictJsonParser } from './http/json-body-parser';
import { readOversizedBodies } from './http/read-oversized-bodies';
import { useHostCheck } from './http/host-check';
import { useSecurityHeaders } from './http/security-headers';
import { createValidationPipe } from './http/validation';
import { documentHotRoutes, serveHotRoutes } from './http/hot-route';
import { NOOP_ROUTE } from './http/noop.route';
import { ORDERS_ROUTE } from './http/orders.route';

const HOT_ROUTES = [ORDERS_ROUTE, NOOP_ROUTE];

/** Builds the whole service (without listening), as main.ts runs it and the e2e tests test it. */
/** The signals that stop an instance (the launcher sends SIGTERM; Ctrl-C is SIGINT); main.ts bounds the shutdown they start. */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export async function createApp(): Promise<NestFastifyApplication> {
  const env = validateEnv();
  // Fastify answers its routing errors (a bad percent-escape), and Node's parser what is not HTTP, before any
  // hook: they name the instance themselves, once it is known.
  const instance: { id?: string } = {};
  const adapter = new FastifyAdapter({
    bodyLimit: Number(env.BODY_LIMIT_BYTES),
    // For the hot routes' body schema (order-body.ts), as strict as the ValidationPipe is elsewhere: no
    // coercion, unknown fields refused rather than stripped, and every fault named.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: true } },
    frameworkErrors: answerFrameworkErrors(() => instance.id),
    clientErrorHandler: answerClientErrorsOf(() => instance.id),
  });
  useStrictJsonParser(adapter.getInstance());
  readOversizedBodies(adapter.getInstance(), Number(env.BODY_LIMIT_BYTES));
  // bodyParser off: the JSON parser is ours (useStrictJsonParser), not Nest's.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ErrorBodyFilter());
  // Only these: with none named, Nest closes the app on every signal it knows, SIGUSR2 and SIGHUP included,
  // so a heap snapshot taken by signal (--heapsnapshot-signal=SIGUSR2) stopped a live instance.
  app.enableShutdownHooks([...SHUTDOWN_SIGNALS]);
  // Which instance answered: the gateway spreads requests, and a demo (or a test) can see where each went.
  const config = app.get<AppConfig>(appConfig.KEY);
  const { instanceId, corsOrigins } = config;
  instance.id = instanceId;
  await useSecurityHeaders(app, corsOrigins);
  // After the security headers' hook, so its refusal carries them too.
  useHostCheck(app, config);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (_request, reply, payload, done) => {
      void reply.header('x-instance', instanceId);
      done(null, payload);
    });

  serveHotRoutes(app, HOT_ROUTES);

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Oversell Lab order service')
      .setDescription('Orders deducted by interchangeable stock strategies; runs that measure which oversell and how fast each is.')
      .setVersion('1')
      .build(),
  );
  documentHotRoutes(document, HOT_ROUTES);
  SwaggerModule.setup('api/docs', app, document);
  return app;
}
