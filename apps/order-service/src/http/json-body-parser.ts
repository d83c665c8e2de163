import type { FastifyInstance } from 'fastify';
import { parse } from 'secure-json-parse';
import type { Localized } from '@oversell/contracts';
import { ApiError } from '@oversell/lab';

const malformedJson = (reason: Localized) => new ApiError(400, 'malformed_json', { en: `malformed JSON body: ${reason.en}`, 'zh-CN': `JSON 请求体格式错误：${reason['zh-CN']}` });

/**
 * How deep a body's objects and arrays may nest. The API's bodies need 3 levels (a run's faults); a
 * deeper one is refused before it is parsed: the ValidationPipe (class-transformer) walks even an
 * unknown field recursively, and a 4 KB body of brackets overflowed its stack (a 500).
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the JSON text nests objects and arrays deeper than `limit`: one pass, string contents skipped. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote; an escape takes the character after it along (\" and \\ close nothing).
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Names every object has by inheritance: "constructor", "toString", "hasOwnProperty", "valueOf", … */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The path (as the validator writes it: `faults[0].toString`) of the first key named like a member of
 * Object.prototype, or null. No API body has such a field, but the validator cannot refuse it as it
 * refuses other unknown fields: class-transformer drops those keys before the unknown-field check runs,
 * so an order with "constructor" or "toString" in it was taken as if they were not there.
 */
export function inheritedNameIn(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inheritedNameIn(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (INHERITED_NAMES.has(key)) return field;
      const found = inheritedNameIn(child, field);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses bytes that are not UTF-8 instead of reading them as U+FFFD (a BOM is dropped, as JSON allows). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's text, or why it cannot be parsed as an API body. */
function decode(body: Buffer): { text: string } | { reason: Localized } {
  if (body.length === 0) return { reason: { en: 'the body is empty', 'zh-CN': '请求体为空' } };
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { reason: { en: 'the body is not valid UTF-8', 'zh-CN': '请求体不是有效的 UTF-8' } };
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { reason: { en: `objects and arrays nested deeper than ${MAX_JSON_DEPTH} levels`, 'zh-CN': `对象和数组嵌套超过 ${MAX_JSON_DEPTH} 层` } };
  return { text };
}

/**
 * Replaces Fastify's JSON parser so a malformed body answers 400 malformed_json: Fastify's own error
 * reaches Nest as a bare HttpException that no longer says what went wrong. Parsed with
 * secure-json-parse, as Fastify's own parser is: a "__proto__" or "constructor.prototype" key is
 * refused at parse (prototype poisoning), before any code can copy it onto an object.
 *
 * The body is read as bytes and decoded here: read as a string, Fastify would turn invalid UTF-8 into
 * U+FFFD, count those characters' bytes against the Content-Length and refuse a body whose length
 * was right. The body limit (413) counts the bytes either way.
 */
export function useStrictJsonParser(fastify: FastifyInstance): void {
  // JSON only: Fastify's text/plain parser would hand the validator a string, and the client a 400 that
  // hides the real fault; any other content type is now a 415 (ErrorBodyFilter names the type).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const decoded = decode(body as Buffer);
    if ('reason' in decoded) return done(malformedJson(decoded.reason), undefined);
    let value: unknown;
    try {
      value = parse(decoded.text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      // The parser's own words (English): where in the text it stopped.
      const reason = (error as Error).message;
      return done(malformedJson({ en: reason, 'zh-CN': reason }), undefined);
    }
    const inherited = inheritedNameIn(value);
    if (inherited) return done(new ApiError(400, 'validation_failed', { en: `property ${inherited} should not exist`, 'zh-CN': `不允许有属性 ${inherited}` }, { field: inherited }), undefined);
    done(null, value);
  });
}
