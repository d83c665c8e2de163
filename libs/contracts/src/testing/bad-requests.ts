import type { ErrorCode } from '../errors';
import { JSON_HEADERS, type ApiRequest } from './api-client';

/** The product every bad request aims at: reset before each, so "changes nothing" is checkable. */
export const BAD_REQUEST_PRODUCT = { stock: 10, strategy: 'lua-decrement' } as const;

/** A request the API must refuse, and the answer every entry point (an instance, the gateway) must give. */
export interface BadRequest {
  case: string;
  request: (productId: number) => ApiRequest;
  status: number;
  error: ErrorCode;
  /** The field the answer names, when one is at fault. */
  field?: string;
  /** Text the message must contain. */
  message?: string;
}

type Refusal = Pick<BadRequest, 'status' | 'error' | 'field' | 'message'>;

const validOrder = (productId: number) => ({ productId, quantity: 1, strategy: BAD_REQUEST_PRODUCT.strategy });
const MB = 1_048_576;
/** curl sends a body over 1 MB this way: headers first, the body only after the server's 100 Continue. */
const EXPECT_CONTINUE = { ...JSON_HEADERS, expect: '100-continue' };

/** body: an object is sent as JSON; a function of the product id gives the raw text. */
function order(what: string, body: (productId: number) => unknown, refusal: Refusal, headers: Record<string, string> = JSON_HEADERS): BadRequest {
  return {
    case: what,
    request: (productId) => {
      const payload = body(productId);
      return { method: 'POST', path: '/api/orders', body: typeof payload === 'string' ? payload : JSON.stringify(payload), headers };
    },
    ...refusal,
  };
}

/** A JSON body sent as bytes to any route, `body` the text or bytes for the product under test. */
function raw(what: string, path: (productId: number) => string, body: (productId: number) => string | Buffer, refusal: Refusal): BadRequest {
  return { case: what, request: (productId) => ({ method: 'POST', path: path(productId), body: body(productId), headers: JSON_HEADERS }), ...refusal };
}

/** An order's fields, then `extra` (raw JSON text) inside the same object. */
const orderWith = (productId: number, extra: string) => `{"productId":${productId},"quantity":1,"strategy":"${BAD_REQUEST_PRODUCT.strategy}",${extra}}`;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const ONE_ORDER_LOAD = '"load":{"connections":1,"totalRequests":1}';
/** Past the parser's nesting limit (32): class-transformer recursed through such a body until its stack overflowed (a 500). */
const tooDeep: Refusal = { status: 400, error: 'malformed_json', message: 'nested deeper than' };
const deeply = `"x":${nested(2000)}`;

/** id: 'ID' stands for the product under test; a function writes it another way. */
function reset(what: string, id: string | ((productId: number) => string), body: object, field: string): BadRequest {
  return {
    case: `a reset with ${what}`,
    request: (productId) => ({ method: 'POST', path: `/api/products/${typeof id === 'function' ? id(productId) : id === 'ID' ? productId : id}/reset`, body: JSON.stringify(body), headers: JSON_HEADERS }),
    status: 400,
    error: field === 'strategy' ? 'unknown_strategy' : 'validation_failed',
    field,
  };
}

/** A valid run of the product under test, one order long, with these faults: nothing may be queued. */
function run(what: string, path: '/api/runs' | '/api/runs/batch', faults: unknown, field: string, load: object = { connections: 1, totalRequests: 1 }): BadRequest {
  return {
    case: `a ${path === '/api/runs' ? 'run' : 'batch'} with ${what}`,
    request: (productId) => ({
      method: 'POST',
      path,
      body: JSON.stringify(path === '/api/runs' ? { strategy: BAD_REQUEST_PRODUCT.strategy, initialStock: 10, productId, load, faults } : { strategies: [BAD_REQUEST_PRODUCT.strategy], includeCeiling: false, initialStock: 10, load, faults }),
      headers: JSON_HEADERS,
    }),
    ...invalid(field),
  };
}

const pause = { kind: 'pause', at: 'stock-read', durationMs: 100 };

/** GET /api/runs?limit=<limit>: a whole number from 1 to 200 or nothing. */
function listLimit(limit: string): BadRequest {
  return { case: `a run list with limit=${limit}`, request: () => ({ method: 'GET', path: `/api/runs?limit=${limit}` }), ...invalid('limit') };
}

function breakLocks(what: string, id: string | ((productId: number) => string)): BadRequest {
  return {
    case: `break-locks with ${what}`,
    request: (productId) => ({ method: 'POST', path: `/api/products/${typeof id === 'function' ? id(productId) : id}/break-locks`, body: '{}', headers: JSON_HEADERS }),
    ...invalid('id'),
  };
}

/**
 * The product under test's id written as Number() would still read it: each must be refused, not
 * act on that product.
 */
const ID_LOOKALIKES: [string, (productId: number) => string][] = [
  ['its id in hex', (id) => `0x${id.toString(16)}`],
  ['its id with an exponent', (id) => `${id}e0`],
  ['its id with a plus sign', (id) => `%2B${id}`],
  ['its id with leading zeros', (id) => `00${id}`],
  ['its id between spaces', (id) => `%20${id}%20`],
  ['its id with a decimal point', (id) => `${id}.0`],
];

const invalid = (field?: string): Refusal => ({ status: 400, error: 'validation_failed', field });
/** Fastify's router cannot decode the path (FST_ERR_BAD_URL): answered before any hook, in the lab's body all the same. */
const badEscape: Refusal = { status: 400, error: 'malformed_url', message: 'percent-escape' };
const unknownStrategy: Refusal = { status: 400, error: 'unknown_strategy', field: 'strategy' };
const malformed: Refusal = { status: 400, error: 'malformed_json' };
const tooLarge: Refusal = { status: 413, error: 'payload_too_large' };

/** A PUT of the course's state (follow mode): refused, it must leave the state as it was. */
function course(what: string, body: string, field?: string, headers: Record<string, string> = JSON_HEADERS, message?: string): BadRequest {
  return { case: `a course state with ${what}`, request: () => ({ method: 'PUT', path: '/api/course', body, headers }), ...(field ? invalid(field) : malformed), ...(message ? { message } : {}) };
}

const ZH = { ...JSON_HEADERS, 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' };

/** Every bad input of the API: each must be refused with its code and field, and take no stock. */
export const BAD_REQUESTS: readonly BadRequest[] = [
  order('productId as a string', (id) => ({ ...validOrder(id), productId: String(id) }), invalid('productId')),
  order('missing productId', () => ({ quantity: 1, strategy: BAD_REQUEST_PRODUCT.strategy }), invalid('productId')),
  order('missing quantity', (productId) => ({ productId, strategy: BAD_REQUEST_PRODUCT.strategy }), invalid('quantity')),
  order('missing strategy', (productId) => ({ productId, quantity: 1 }), unknownStrategy),
  order('quantity 0', (id) => ({ ...validOrder(id), quantity: 0 }), invalid('quantity')),
  order('negative quantity', (id) => ({ ...validOrder(id), quantity: -3 }), invalid('quantity')),
  order('fractional quantity', (id) => ({ ...validOrder(id), quantity: 1.5 }), invalid('quantity')),
  order('absurdly large quantity', (id) => ({ ...validOrder(id), quantity: 1e12 }), invalid('quantity')),
  order('quantity as a string', (id) => ({ ...validOrder(id), quantity: '1' }), invalid('quantity')),
  order('unknown strategy', (id) => ({ ...validOrder(id), strategy: 'optimistic-hope' }), unknownStrategy),
  order('an unknown field', (id) => ({ ...validOrder(id), price: 0 }), invalid('price')),
  order('an empty idempotency key', (id) => ({ ...validOrder(id), idempotencyKey: '' }), invalid('idempotencyKey')),
  order('a 200-character idempotency key', (id) => ({ ...validOrder(id), idempotencyKey: 'k'.repeat(200) }), invalid('idempotencyKey')),
  order('an array body', (id) => [validOrder(id)], invalid()),
  order('malformed JSON', () => '{"productId": 1, "quantity": ', malformed),
  order('an empty body', () => '', malformed),
  // Raw text: JSON.stringify of an object literal would not write a "__proto__" key.
  order('a __proto__ key', (id) => `{"productId":${id},"quantity":1,"strategy":"lua-decrement","__proto__":{"x":1}}`, malformed),
  order('a constructor.prototype key', (id) => `{"productId":${id},"quantity":1,"strategy":"lua-decrement","constructor":{"prototype":{"x":1}}}`, malformed),
  // Named like members of Object.prototype: class-transformer dropped them before the unknown-field check, and the order was taken.
  raw('an order with a "constructor" field', () => '/api/orders', (id) => orderWith(id, '"constructor":{"name":"x"}'), invalid('constructor')),
  raw('an order with a "toString" field', () => '/api/orders', (id) => orderWith(id, '"toString":"y"'), invalid('toString')),
  raw('break-locks with a body field', (id) => `/api/products/${id}/break-locks`, () => '{"lock":"all"}', invalid('lock')),
  raw('a reset with a "hasOwnProperty" field', (id) => `/api/products/${id}/reset`, () => '{"stock":5,"strategy":"no-lock","hasOwnProperty":1}', invalid('hasOwnProperty')),
  raw('a run with a "valueOf" field in a fault', () => '/api/runs', (id) => `{"strategy":"lua-decrement","initialStock":5,"productId":${id},${ONE_ORDER_LOAD},"faults":[{"kind":"pause","at":"stock-read","durationMs":10,"valueOf":1}]}`, invalid('faults[0].valueOf')),
  raw('an order with a field nested 2000 deep', () => '/api/orders', (id) => orderWith(id, deeply), tooDeep),
  raw('an order with a field nested one level past the limit', () => '/api/orders', (id) => orderWith(id, `"x":${nested(32)}`), tooDeep),
  // 1 object + 31 arrays: at the limit, refused as any unknown field; the brackets, escaped quote and backslash in the string are text.
  raw('an order with an unknown field nested to the limit', () => '/api/orders', (id) => orderWith(id, `"x":${'['.repeat(31)}"[[[{{\\"{\\\\"${']'.repeat(31)}`), invalid('x')),
  raw('a no-op with a field nested 2000 deep', () => '/api/noop', (id) => orderWith(id, deeply), tooDeep),
  raw('a reset with a field nested 2000 deep', (id) => `/api/products/${id}/reset`, () => `{"stock":5,"strategy":"lua-decrement",${deeply}}`, tooDeep),
  raw('a run with a field nested 2000 deep', () => '/api/runs', (id) => `{"strategy":"lua-decrement","initialStock":5,"productId":${id},${ONE_ORDER_LOAD},${deeply}}`, tooDeep),
  raw('a batch with a field nested 2000 deep', () => '/api/runs/batch', () => `{"strategies":["lua-decrement"],"initialStock":5,${ONE_ORDER_LOAD},${deeply}}`, tooDeep),
  // Valid UTF-8 reaches the validator, which wants the key in printable ASCII.
  raw('an idempotency key in UTF-8 but not ASCII (é)', () => '/api/orders', (id) => Buffer.from(orderWith(id, '"idempotencyKey":"caf\u00e9"'), 'utf8'), invalid('idempotencyKey')),
  // Fastify used to decode it with replacement characters and then answer that the size did not match Content-Length.
  raw('an idempotency key that is not UTF-8 (a Latin-1 é)', () => '/api/orders', (id) => Buffer.concat([Buffer.from(orderWith(id, '"idempotencyKey":"caf').slice(0, -1)), Buffer.from([0xe9]), Buffer.from('"}')]), {
    status: 400,
    error: 'malformed_json',
    message: 'not valid UTF-8',
  }),
  order('a text/plain body', (id) => validOrder(id), { status: 415, error: 'unsupported_media_type', message: 'text/plain' }, { 'content-type': 'text/plain' }),
  order('a body without a content type', (id) => validOrder(id), { status: 415, error: 'unsupported_media_type', message: 'without a content type' }, {}),
  order('an unknown field sent with Expect: 100-continue', (id) => ({ ...validOrder(id), price: 0 }), invalid('price'), EXPECT_CONTINUE),
  order('a 1 MB body', (id) => ({ ...validOrder(id), padding: 'x'.repeat(1_000_000) }), tooLarge),
  order('a 1 MB body sent with Expect: 100-continue', (id) => ({ ...validOrder(id), padding: 'x'.repeat(1_000_000) }), tooLarge, EXPECT_CONTINUE),
  order('a 5 MB body', (id) => ({ ...validOrder(id), padding: 'x'.repeat(5 * MB) }), tooLarge),
  order('a 5 MB body sent with Expect: 100-continue', (id) => ({ ...validOrder(id), padding: 'x'.repeat(5 * MB) }), tooLarge, EXPECT_CONTINUE),
  order('another strategy than the product was reset for', (id) => ({ ...validOrder(id), strategy: 'no-lock' }), { status: 409, error: 'strategy_mismatch', field: 'strategy' }),
  reset('negative stock', 'ID', { stock: -1, strategy: 'lua-decrement' }, 'stock'),
  reset('stock as a string', 'ID', { stock: '10', strategy: 'lua-decrement' }, 'stock'),
  reset('fractional stock', 'ID', { stock: 2.5, strategy: 'lua-decrement' }, 'stock'),
  reset('an unknown strategy', 'ID', { stock: 5, strategy: 'mutex-of-hope' }, 'strategy'),
  reset('lock TTL 0', 'ID', { stock: 5, strategy: 'uuid-lua', lockTtlMs: 0 }, 'lockTtlMs'),
  reset('a negative business delay', 'ID', { stock: 5, strategy: 'uuid-lua', businessDelayMs: -5 }, 'businessDelayMs'),
  reset('0 segments', 'ID', { stock: 5, strategy: 'segmented', segments: 0 }, 'segments'),
  reset('an unknown way of writing orders', 'ID', { stock: 5, strategy: 'lua-decrement', orderWrite: 'eventually' }, 'orderWrite'),
  reset('a non-numeric id', 'abc', { stock: 5, strategy: 'lua-decrement' }, 'id'),
  reset('id 0', '0', { stock: 5, strategy: 'lua-decrement' }, 'id'),
  reset('faults that are not a list', 'ID', { stock: 5, strategy: 'uuid-lua', faults: pause }, 'faults'),
  reset('a fault that is not an object', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [3] }, 'faults'),
  reset('an unknown fault kind', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, kind: 'meteor' }] }, 'faults[0].kind'),
  reset('a pause at no fault point', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'pause', durationMs: 100 }] }, 'faults[0].at'),
  reset('a pause at an unknown fault point', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, at: 'lunch' }] }, 'faults[0].at'),
  reset('a clock-offset at a fault point', 'ID', { stock: 5, strategy: 'setnx-getset', faults: [{ kind: 'clock-offset', offsetMs: 5000, instance: 0, at: 'stock-read' }] }, 'faults[0].at'),
  reset('a pause without its duration', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'pause', at: 'stock-read' }] }, 'faults[0].durationMs'),
  reset('a crash with a duration', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'crash', at: 'stock-read', durationMs: 100 }] }, 'faults[0].durationMs'),
  reset('a pause longer than the limit', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, durationMs: 30_001 }] }, 'faults[0].durationMs'),
  reset('a clock-offset without its offset', 'ID', { stock: 5, strategy: 'setnx-getset', faults: [{ kind: 'clock-offset', instance: 0 }] }, 'faults[0].offsetMs'),
  reset('a clock-offset of 0 ms', 'ID', { stock: 5, strategy: 'setnx-getset', faults: [{ kind: 'clock-offset', instance: 0, offsetMs: 0 }] }, 'faults[0].offsetMs'),
  reset('a clock-offset on no instance in particular', 'ID', { stock: 5, strategy: 'setnx-getset', faults: [{ kind: 'clock-offset', offsetMs: 5000 }] }, 'faults[0].instance'),
  reset('an offset on a pause', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, offsetMs: 5000 }] }, 'faults[0].offsetMs'),
  reset('a store on a pause', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, store: 'mysql' }] }, 'faults[0].store'),
  reset('a store-cut of an unknown store', 'ID', { stock: 5, strategy: 'db-conditional', faults: [{ kind: 'store-cut', at: 'stock-read', durationMs: 100, store: 'postgres' }] }, 'faults[0].store'),
  reset('copies on a pause', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, copies: 2 }] }, 'faults[0].copies'),
  reset('a double-click of 1 copy', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'double-click', copies: 1 }] }, 'faults[0].copies'),
  reset('a fault both once and every 3rd time', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, once: true, every: 3 }] }, 'faults[0].once'),
  reset('a fault with probability 0', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, probability: 0 }] }, 'faults[0].probability'),
  reset('a failover every 2nd time (it fires once per run)', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ kind: 'failover', at: 'lock-acquired', every: 2 }] }, 'faults[0].every'),
  reset('a fault every 0th time', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, every: 0 }] }, 'faults[0].every'),
  reset('a fault on an instance index beyond the live ones', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, instance: 50 }] }, 'faults[0].instance'),
  reset('a resolved instance id sent by the client', 'ID', { stock: 5, strategy: 'uuid-lua', faults: [{ ...pause, instanceId: 'someone' }] }, 'faults[0].instanceId'),
  reset('9 faults', 'ID', { stock: 5, strategy: 'uuid-lua', faults: Array.from({ length: 9 }, () => pause) }, 'faults'),
  ...['abc', '2abc', '1.5', '0x10', '1e1', '', '0', '201', '-1'].map(listLimit),
  run('a pause at no fault point', '/api/runs', [{ kind: 'pause', durationMs: 100 }], 'faults[0].at'),
  run('a second fault without its duration', '/api/runs', [pause, { kind: 'stop-the-world', at: 'lock-acquired' }], 'faults[1].durationMs'),
  run('a fault on an instance index beyond the live ones', '/api/runs', [{ ...pause, instance: 50 }], 'faults[0].instance'),
  run('a failover on instances whose locks are on no Sentinel group', '/api/runs', [{ kind: 'failover', at: 'lock-acquired' }], 'faults[0].kind'),
  run('9 faults', '/api/runs/batch', Array.from({ length: 9 }, () => pause), 'faults'),
  // A batch names its strategies: a `strategy` there is an unknown field (it was answered unknown_strategy, listing the names).
  raw('a batch with a strategy field', () => '/api/runs/batch', () => `{"strategy":"no-lock","initialStock":5,${ONE_ORDER_LOAD}}`, { ...invalid('strategy'), message: 'should not exist' }),
  run('a crash with an offset', '/api/runs/batch', [{ kind: 'crash', at: 'lock-acquired', offsetMs: 10 }], 'faults[0].offsetMs'),
  // Valid loads on their own, not with a double-click: refused before a run is queued, not when its load starts.
  run('a double-click on an arrival rate (an open model)', '/api/runs', [{ kind: 'double-click', copies: 2 }], 'load.arrivalRate', { connections: 1, arrivalRate: 1, durationSec: 1 }),
  run('a double-click on an arrival rate (an open model)', '/api/runs/batch', [{ kind: 'double-click' }], 'load.arrivalRate', { connections: 1, arrivalRate: 1, durationSec: 1 }),
  run('10 copies on 201 connections (2010 in flight)', '/api/runs', [{ kind: 'double-click', copies: 10 }], 'load.connections', { connections: 201, durationSec: 1 }),
  run('2 copies (the default) on 1001 connections', '/api/runs/batch', [{ kind: 'double-click' }], 'load.connections', { connections: 1001, durationSec: 1 }),
  breakLocks('a non-numeric id', 'abc'),
  breakLocks('id 0', '0'),
  ...ID_LOOKALIKES.map(([what, id]) => reset(what, id, { stock: 5, strategy: 'no-lock' }, 'id')),
  ...ID_LOOKALIKES.map(([what, id]) => breakLocks(what, id)),
  { case: 'an inventory read with a bad percent-escape (%zz) for the id', request: () => ({ method: 'GET', path: '/api/products/%zz/inventory' }), ...badEscape },
  { case: 'a reset with a bad percent-escape (%zz) for the id', request: () => ({ method: 'POST', path: '/api/products/%zz/reset', body: JSON.stringify(BAD_REQUEST_PRODUCT), headers: JSON_HEADERS }), ...badEscape },
  // Past the router's maxParamLength (100): refused before the id is validated.
  { case: 'a run id of 101 characters', request: () => ({ method: 'GET', path: `/api/runs/${'r'.repeat(101)}` }), status: 414, error: 'uri_too_long' },
  course('no lessonId', '{"runIds":[]}', 'lessonId'),
  course('a lessonId that is a number', '{"lessonId":7}', 'lessonId'),
  course('a lessonId of 65 characters', JSON.stringify({ lessonId: 'x'.repeat(65) }), 'lessonId'),
  course('runIds that are not run ids', '{"lessonId":"owner-token","runIds":["run-1"]}', 'runIds'),
  course('a version of its own (the version is the service\'s)', '{"lessonId":"owner-token","version":99}', 'version'),
  course('malformed JSON', '{"lessonId":', undefined),
  // The same refusals in the language the client asks for: the code and the field stay as they are.
  course('a lessonId that is a number, asked in Chinese', '{"lessonId":7}', 'lessonId', ZH, 'lessonId 必须是字符串'),
  order('quantity 0, asked in Chinese', (id) => ({ ...validOrder(id), quantity: 0 }), { ...invalid('quantity'), message: 'quantity 不能小于 1' }, ZH),
  order('quantity 0, asked in English', (id) => ({ ...validOrder(id), quantity: 0 }), { ...invalid('quantity'), message: 'quantity must not be less than 1' }, { ...JSON_HEADERS, 'accept-language': 'en-US' }),
];
