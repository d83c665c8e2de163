import { answerClientErrors, errorBodyIn, frameworkErrorBody, headersSetBy, LAB_HELMET_OPTIONS } from '@oversell/contracts';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import { errorLocale } from './request-locale';

/** helmet's headers, recorded once for the answers given before any hook runs. */
const PRE_ROUTING_HEADERS = headersSetBy(helmet(LAB_HELMET_OPTIONS));

/**
 * Fastify's `frameworkErrors`: its routing errors (a bad percent-escape in the path, FST_ERR_BAD_URL; a
 * path segment over maxParamLength) in the lab's body, with the security headers and x-instance that
 * the hooks would have added: Fastify answers them before any hook runs. Without it Fastify answers
 * `{ "error": "Bad Request", "code": "FST_ERR_BAD_URL" }`.
 */
export function answerFrameworkErrors(instanceId: () => string | undefined): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const locale = errorLocale(request);
    const body = errorBodyIn(frameworkErrorBody(error), locale);
    void reply.code(body.statusCode).headers({ ...preRoutingHeaders(instanceId()), 'content-language': locale }).send(body);
  };
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (headers over 16 KiB, bytes that are
 * not HTTP) in the lab's body, with the same headers as the routing errors above.
 */
export function answerClientErrorsOf(instanceId: () => string | undefined): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return answerClientErrors(() => preRoutingHeaders(instanceId()));
}

function preRoutingHeaders(instance: string | undefined): Record<string, string> {
  return instance ? { ...PRE_ROUTING_HEADERS, 'x-instance': instance } : PRE_ROUTING_HEADERS;
}
