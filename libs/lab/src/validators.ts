/**
 * class-validator's decorators with their messages in every language (the English is class-validator's
 * own words), so a DTO that uses them answers a 400 in the client's language. A message passed in the
 * options (`says(...)`) wins over these.
 */
import type { Localized } from '@oversell/contracts';
import * as validator from 'class-validator';
import type { ValidationOptions } from 'class-validator';

/**
 * A validator's message in every language: class-validator keeps one string (the English, which it
 * answers by itself), and the context carries all of them to the service's validation pipe, which
 * answers in the client's. `$property` stands for the property's name, as in class-validator's own messages.
 */
export function says(message: Localized): Pick<ValidationOptions, 'message' | 'context'> {
  return { message: message.en, context: { message } };
}

/** What a rule says of the value: `$property`, or each value of it (`each: true`). */
type Rule = (subject: Localized) => Localized;

function localized(rule: Rule, options: ValidationOptions = {}): ValidationOptions {
  if (options.message !== undefined) return options;
  const subject: Localized = options.each ? { en: 'each value in $property', 'zh-CN': '$property 的每一项' } : { en: '$property', 'zh-CN': '$property' };
  return { ...options, ...says(rule(subject)) };
}

const rule = (en: string, zh: string): Rule => (s) => ({ en: `${s.en} ${en}`, 'zh-CN': `${s['zh-CN']} ${zh}` });

export const IsInt = (options?: ValidationOptions) => validator.IsInt(localized(rule('must be an integer number', '必须是整数'), options));
export const IsString = (options?: ValidationOptions) => validator.IsString(localized(rule('must be a string', '必须是字符串'), options));
export const IsBoolean = (options?: ValidationOptions) => validator.IsBoolean(localized(rule('must be a boolean value', '必须是布尔值'), options));
export const IsObject = (options?: ValidationOptions) => validator.IsObject(localized(rule('must be an object', '必须是对象'), options));
export const IsArray = (options?: ValidationOptions) => validator.IsArray(localized(rule('must be an array', '必须是数组'), options));
export const IsUUID = (options?: ValidationOptions) => validator.IsUUID(undefined, localized(rule('must be a UUID', '必须是 UUID'), options));
export const Min = (min: number, options?: ValidationOptions) => validator.Min(min, localized(rule(`must not be less than ${min}`, `不能小于 ${min}`), options));
export const Max = (max: number, options?: ValidationOptions) => validator.Max(max, localized(rule(`must not be greater than ${max}`, `不能大于 ${max}`), options));
export const MaxLength = (max: number, options?: ValidationOptions) =>
  validator.MaxLength(max, localized(rule(`must be shorter than or equal to ${max} characters`, `最多 ${max} 个字符`), options));
export const Matches = (pattern: RegExp, options?: ValidationOptions) => validator.Matches(pattern, localized(rule(`must match ${pattern} regular expression`, `必须匹配正则表达式 ${pattern}`), options));
export const IsIn = (values: readonly unknown[], options?: ValidationOptions) =>
  validator.IsIn(values, localized(rule(`must be one of the following values: ${values.join(', ')}`, `必须是以下值之一：${values.join(', ')}`), options));
export const ArrayMinSize = (min: number, options?: ValidationOptions) =>
  validator.ArrayMinSize(min, localized(rule(`must contain at least ${min} elements`, `至少包含 ${min} 个元素`), options));
export const ArrayMaxSize = (max: number, options?: ValidationOptions) =>
  validator.ArrayMaxSize(max, localized(rule(`must contain no more than ${max} elements`, `最多包含 ${max} 个元素`), options));
export const ArrayUnique = (options?: ValidationOptions) =>
  validator.ArrayUnique(localized(() => ({ en: "All $property's elements must be unique", 'zh-CN': '$property 的元素不能重复' }), options));
