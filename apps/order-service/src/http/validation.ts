import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { STRATEGY_NAMES } from '@oversell/contracts';
import { ApiError } from '@oversell/lab';

/** Flattens nested class-validator errors into "field → problems", with paths like `load.connections` and `faults[0].at`. */
function flatten(errors: ValidationError[], parent = ''): { field: string; problems: string[]; rules: string[] }[] {
  return errors.flatMap((error) => {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints), rules: Object.keys(error.constraints) }] : [];
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
    exceptionFactory: (errors) => {
      const flat = flatten(errors);
      const details = flat.map(({ field, problems }) => ({ field, problems }));
      const first = details[0];
      // A strategy field where none belongs (a batch names `strategies`) is an unknown field, not a bad name.
      const unknownField = flat[0]?.rules.includes('whitelistValidation');
      if ((first?.field === 'strategy' || first?.field.endsWith('.strategy')) && !unknownField) {
        return new ApiError(400, 'unknown_strategy', `${first.field} must be one of: ${STRATEGY_NAMES.join(', ')}`, { field: first.field, details });
      }
      const message = details.map((d) => d.problems.join('; ')).join('; ');
      return new ApiError(400, 'validation_failed', message || 'invalid request', { field: first?.field, details });
    },
  });
}
