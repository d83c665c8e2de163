import type { FastifyInstance } from 'fastify';
import { parse } from 'secure-json-parse';
import { ApiError } from './error-body';

/**
 * Replaces Fastify's JSON parser so a malformed body answers 400 malformed_json: Fastify's own error
 * reaches Nest as a bare HttpException that no longer says what went wrong. Parsed with
 * secure-json-parse, as Fastify's own parser is: a "__proto__" or "constructor.prototype" key is
 * refused at parse (prototype poisoning), before any code can copy it onto an object.
 */
export function useStrictJsonParser(fastify: FastifyInstance): void {
  // JSON only: Fastify's text/plain parser would hand the validator a string, and the client a 400 that
  // hides the real fault; any other content type is now a 415 (ErrorBodyFilter names the type).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parse(body as string, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const reason = (body as string).length === 0 ? 'the body is empty' : (error as Error).message;
      done(new ApiError(400, 'malformed_json', `malformed JSON body: ${reason}`), undefined);
    }
  });
}
