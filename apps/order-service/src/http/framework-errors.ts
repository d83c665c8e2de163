import { frameworkErrorBody, headersSetBy, LAB_HELMET_OPTIONS } from '@oversell/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * Fastify's `frameworkErrors`: its routing errors (a bad percent-escape in the path, FST_ERR_BAD_URL; a
 * path segment over maxParamLength) in the lab's body, with the security headers and x-instance that
 * the hooks would have added: Fastify answers them before any hook runs. Without it Fastify answers
 * `{ "error": "Bad Request", "code": "FST_ERR_BAD_URL" }`.
 */
export function answerFrameworkErrors(instanceId: () => string | undefined): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  const headers = headersSetBy(helmet(LAB_HELMET_OPTIONS));
  return (error, _request, reply) => {
    const body = frameworkErrorBody(error);
    const instance = instanceId();
    void reply
      .code(body.statusCode)
      .headers(instance ? { ...headers, 'x-instance': instance } : headers)
      .send(body);
  };
}
