import type { FastifyInstance } from 'fastify';
import { ApiError } from './error-body';

/**
 * Replaces Fastify's JSON parser so a malformed body answers 400 malformed_json: Fastify's own error
 * reaches Nest as a bare HttpException that no longer says what went wrong.
 */
export function useStrictJsonParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      const reason = (body as string).length === 0 ? 'the body is empty' : (error as Error).message;
      done(new ApiError(400, 'malformed_json', `malformed JSON body: ${reason}`), undefined);
    }
  });
}
