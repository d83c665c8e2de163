import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { FAULT_KINDS, FAULT_LIMITS, FAULT_POINT_NAMES, FAULT_STORES, FAULTS_AT_A_POINT, FAULTS_WITH_DURATION, faultProblems, joinedLocalized, PROBLEM_SEPARATOR, type FaultKind, type FaultPointName, type FaultSettings, type FaultStore } from '@oversell/contracts';
import { Type } from 'class-transformer';
import { IsOptional, registerDecorator, ValidateNested } from 'class-validator';
import { ArrayMaxSize, IsArray, IsObject, says } from '../validators';

/**
 * Checks a field, given or missing, by the contract's rules for one fault (faultProblems): the rules are
 * written once, in @oversell/contracts, which the run form checks with too; this only hangs each
 * problem on its field, so the 400 names `faults[i].<field>`. Its message depends on the whole fault, so
 * the context gives the service's validation pipe the way to write it in every language (`messageOf`,
 * from the error's target), class-validator's own message being the English.
 */
function ByTheContract(): PropertyDecorator {
  return (target, propertyName) => {
    const problemsOf = (fault: object) =>
      faultProblems(fault as FaultSettings)
        .filter((problem) => problem.field === propertyName)
        .map((problem) => problem.message);
    const messageOf = (fault: object) => joinedLocalized(problemsOf(fault), PROBLEM_SEPARATOR);
    registerDecorator({
      name: 'faultRules',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { context: { messageOf } },
      validator: {
        validate: (_value, args) => problemsOf(args!.object).length === 0,
        defaultMessage: (args) => messageOf(args!.object).en,
      },
    });
  };
}

const kinds = (list: readonly FaultKind[]) => list.join(', ');

/** One fault of a run or a reset (FaultSettings), checked field by field by the contract's rules. */
export class FaultSettingsDto implements FaultSettings {
  @ApiPropertyOptional({ enum: FAULT_KINDS })
  @ByTheContract()
  kind!: FaultKind;

  @ApiPropertyOptional({ enum: FAULT_POINT_NAMES, description: `Required for ${kinds(FAULTS_AT_A_POINT)}; refused for the others.` })
  @ByTheContract()
  at?: FaultPointName;

  @ApiPropertyOptional({ description: 'Fire once, at the first passage over all instances (the default).' })
  @ByTheContract()
  once?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: FAULT_LIMITS.maxEvery, description: 'Fire at every Nth passage, counted over all instances.' })
  @ByTheContract()
  every?: number;

  @ApiPropertyOptional({ minimum: 0, exclusiveMinimum: true, maximum: 1, description: 'Fire at each passage with this probability.' })
  @ByTheContract()
  probability?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: FAULT_LIMITS.maxDurationMs, description: `Required for ${kinds(FAULTS_WITH_DURATION)}.` })
  @ByTheContract()
  durationMs?: number;

  @ApiPropertyOptional({ enum: FAULT_STORES, description: 'store-cut only: the store this instance is cut off (default redis); the lab\'s own bookkeeping is never cut.' })
  @ByTheContract()
  store?: FaultStore;

  @ApiPropertyOptional({ minimum: -FAULT_LIMITS.maxClockOffsetMs, maximum: FAULT_LIMITS.maxClockOffsetMs, description: 'clock-offset (required): ± ms, not 0; clock-jump (required): how far the RedLock node\'s clock steps forward, ms > 0.' })
  @ByTheContract()
  offsetMs?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description:
      'Index of the instance among the live ones in port order; every instance when omitted (a crash: every instance but the one running the run, which is never crashed). Required for clock-offset (all clocks shifted alike show nothing).',
  })
  @ByTheContract()
  instance?: number;

  @ApiPropertyOptional({ minimum: 2, maximum: FAULT_LIMITS.maxCopies, description: 'double-click only: copies of each order sent at once.' })
  @ByTheContract()
  copies?: number;

  @ApiPropertyOptional({ description: 'double-click only: whether the copies carry an idempotency key (default true).' })
  @ByTheContract()
  idempotencyKey?: boolean;
}

/** The `faults` field of a run, a batch and a reset. */
export function FaultsField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: FaultSettingsDto, isArray: true, maxItems: FAULT_LIMITS.maxFaultsPerRun, description: 'Faults injected at the fault points during the run.' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(FAULT_LIMITS.maxFaultsPerRun),
    IsObject({ each: true, ...says({ en: 'each fault must be an object: { kind, at, … }', 'zh-CN': '每个故障都必须是对象：{ kind, at, … }' }) }),
    ValidateNested({ each: true }),
    Type(() => FaultSettingsDto),
  );
}
