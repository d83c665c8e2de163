import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { joinedLocalized, PROBLEM_SEPARATOR, STRATEGY_NAMES, type Localized } from '@oversell/contracts';
import { ApiError } from '@oversell/lab';

/**
 * A validator's problem as the client reads it: its localized message (validators.ts, says()), or the one
 * a rule writes from the whole object it checks (`messageOf`: the fault rules of @oversell/contracts, which
 * the run form shares); an unknown field (the pipe's own rule); else the one the rule wrote, the same in every language.
 */
function problem(error: ValidationError, rule: string, english: string): Localized {
  const context = error.contexts?.[rule] as { message?: Localized; messageOf?: (object: object) => Localized } | undefined;
  const message = context?.messageOf && error.target ? context.messageOf(error.target) : context?.message;
  if (rule === 'whitelistValidation') return { en: english, 'zh-CN': `不允许有属性 ${error.property}` };
  if (!message) return { en: english, 'zh-CN': english };
  const named = (text: string) => text.replaceAll('$property', error.property);
  return { en: named(message.en), 'zh-CN': named(message['zh-CN']) };
}

/** Flattens nested class-validator errors into "field → problems", with paths like `load.connections` and `faults[0].at`. */
function flatten(errors: ValidationError[], parent = ''): { field: string; problems: Localized[]; rules: string[] }[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    const own = constraints.length ? [{ field, problems: constraints.map(([rule, english]) => problem(error, rule, english)), rules: constraints.map(([rule]) => rule) }] : [];
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * DTO validation at the edge: no implicit type conversion (a "5" is not a number), unknown fields
 * refused, and a 400 that names every field at fault. A bad strategy name gets its own code and the
 * list of valid names.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    transformOptions: { enableImplicitConversion: false },
    // The object each error was found in, for the rules that write their message from it (problem()); never sent.
    validationError: { target: true },
    exceptionFactory: (errors) => {
      const flat = flatten(errors);
      const details = flat.map(({ field, problems }) => ({ field, problems }));
      const first = details[0];
      // A strategy field where none belongs (a batch names `strategies`) is an unknown field, not a bad name.
      const unknownField = flat[0]?.rules.includes('whitelistValidation');
      if ((first?.field === 'strategy' || first?.field.endsWith('.strategy')) && !unknownField) {
        const names = STRATEGY_NAMES.join(', ');
        return new ApiError(400, 'unknown_strategy', { en: `${first.field} must be one of: ${names}`, 'zh-CN': `${first.field} 必须是以下之一：${names}` }, { field: first.field, details });
      }
      const message = details.length ? joinedLocalized(details.map((d) => joinedLocalized(d.problems, PROBLEM_SEPARATOR)), PROBLEM_SEPARATOR) : { en: 'invalid request', 'zh-CN': '请求无效' };
      return new ApiError(400, 'validation_failed', message, { field: first?.field, details });
    },
  });
}
