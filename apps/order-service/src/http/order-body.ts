import { MAX_ORDER_QUANTITY, MAX_PRODUCT_ID, STRATEGY_NAMES, type Localized } from '@oversell/contracts';
import type { FastifySchemaValidationError } from 'fastify';
import { ApiError } from '@oversell/lab';

/**
 * An order's body (POST /api/orders and the no-op ceiling), as a JSON schema Fastify compiles once with
 * ajv, set strict in create-app.ts: no type coercion (a "5" is not a number), unknown fields refused, not
 * stripped, every fault reported. class-validator and class-transformer did the same through Nest's
 * ValidationPipe for ~10 % of an instance's CPU under the no-op load (docs/performance.md).
 */
export const ORDER_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['productId', 'quantity', 'strategy'],
  properties: {
    productId: { type: 'integer', minimum: 1, maximum: MAX_PRODUCT_ID },
    quantity: { type: 'integer', minimum: 1, maximum: MAX_ORDER_QUANTITY },
    strategy: { type: 'string', enum: STRATEGY_NAMES },
    idempotencyKey: {
      type: 'string',
      // null is no key, as an absent one: an order's own view carries idempotencyKey: null. (ajv reads
      // OpenAPI's nullable, so the document says it too.)
      nullable: true,
      minLength: 1,
      maxLength: 128,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'A retry with the same key returns the first order instead of taking stock again. Printable ASCII without spaces.',
    },
  },
} as const;

const FIELD_ORDER: readonly string[] = Object.keys(ORDER_BODY_SCHEMA.properties);

interface Problem {
  field: string | undefined;
  unknownField: boolean;
  problem: Localized;
}

/** One ajv error in the words the lab's other 400s use (class-validator's, for the fields it checked). */
function problemOf(error: FastifySchemaValidationError): Problem {
  const { params } = error;
  if (error.keyword === 'additionalProperties') {
    const field = String(params.additionalProperty);
    return { field, unknownField: true, problem: { en: `property ${field} should not exist`, 'zh-CN': `不允许有属性 ${field}` } };
  }
  const field = error.keyword === 'required' ? String(params.missingProperty) : error.instancePath.slice(1) || undefined;
  const name = field ?? 'the body';
  const zhName = field ?? '请求体';
  const limit = String(params.limit);
  const typeNames: Record<string, Localized> = { integer: { en: 'an integer number', 'zh-CN': '整数' }, string: { en: 'a string', 'zh-CN': '字符串' } };
  const typeName = typeNames[String(params.type)] ?? { en: `a ${String(params.type)}`, 'zh-CN': String(params.type) };
  const problems: Record<string, () => Localized> = {
    required: () => ({ en: `${name} is required`, 'zh-CN': `缺少 ${zhName}` }),
    type: () => (field ? { en: `${name} must be ${typeName.en}`, 'zh-CN': `${name} 必须是${typeName['zh-CN']}` } : { en: 'the body must be a JSON object', 'zh-CN': '请求体必须是 JSON 对象' }),
    minimum: () => ({ en: `${name} must not be less than ${limit}`, 'zh-CN': `${zhName} 不能小于 ${limit}` }),
    maximum: () => ({ en: `${name} must not be greater than ${limit}`, 'zh-CN': `${zhName} 不能大于 ${limit}` }),
    minLength: () => ({ en: `${name} must be longer than or equal to ${limit} characters`, 'zh-CN': `${zhName} 至少 ${limit} 个字符` }),
    maxLength: () => ({ en: `${name} must be shorter than or equal to ${limit} characters`, 'zh-CN': `${zhName} 最多 ${limit} 个字符` }),
    pattern: () => ({ en: `${name} must be printable ASCII without spaces`, 'zh-CN': `${zhName} 必须是不含空格的可打印 ASCII 字符` }),
    enum: () => {
      const values = (params.allowedValues as string[]).join(', ');
      return { en: `${name} must be one of: ${values}`, 'zh-CN': `${zhName} 必须是以下之一：${values}` };
    },
  };
  // ajv's own words for a keyword the schema does not use today.
  const other = `${name} ${error.message ?? 'is invalid'}`;
  return { field, unknownField: false, problem: problems[error.keyword]?.() ?? { en: other, 'zh-CN': other } };
}

const rank = (p: Problem): number => (p.unknownField ? -1 : p.field === undefined ? -2 : FIELD_ORDER.indexOf(p.field));

/**
 * Unknown fields named in a refusal; the rest are counted. A body of tens of thousands of unknown keys
 * would otherwise get an answer ten times its size.
 */
export const UNKNOWN_FIELDS_NAMED = 20;

/**
 * The 400 for a body the schema refused, as the lab answers every bad body: each field at fault with
 * its problems, unknown fields first, then the fields in the schema's order; a strategy that is missing
 * or unknown gets its own code and the list of valid names.
 */
export function orderBodyRefusal(errors: FastifySchemaValidationError[]): ApiError {
  const all = errors.map(problemOf).sort((a, b) => rank(a) - rank(b));
  const unnamed = Math.max(0, all.filter((p) => p.unknownField).length - UNKNOWN_FIELDS_NAMED);
  const problems = all.filter((p, i) => !p.unknownField || i < UNKNOWN_FIELDS_NAMED);
  const byField = new Map<string, Localized[]>();
  // The body itself not being an object has no field: the message says it.
  for (const { field, problem } of problems) if (field !== undefined) byField.set(field, [...(byField.get(field) ?? []), problem]);
  const details = [...byField].map(([field, fieldProblems]) => ({ field, problems: fieldProblems }));
  const first = problems[0];
  if (first?.field === 'strategy' && !first.unknownField) {
    const names = STRATEGY_NAMES.join(', ');
    return new ApiError(400, 'unknown_strategy', { en: `strategy must be one of: ${names}`, 'zh-CN': `strategy 必须是以下之一：${names}` }, { field: 'strategy', details });
  }
  // The count of the unknown fields not named comes right after the last one named.
  const texts = problems.map((p) => p.problem);
  if (unnamed) texts.splice(problems.filter((p) => p.unknownField).length, 0, { en: `and ${unnamed} more unknown fields`, 'zh-CN': `另有 ${unnamed} 个未知字段` });
  const message: Localized = texts.length ? { en: texts.map((t) => t.en).join('; '), 'zh-CN': texts.map((t) => t['zh-CN']).join('；') } : { en: 'invalid request', 'zh-CN': '请求无效' };
  return new ApiError(400, 'validation_failed', message, { field: first?.field, ...(details.length ? { details } : {}) });
}
