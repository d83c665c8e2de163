import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { FAULT_KINDS, FAULT_LIMITS, FAULT_POINT_NAMES, FAULTS_AT_A_POINT, FAULTS_WITH_DURATION, type FaultKind, type FaultPointName, type FaultSettings } from '@oversell/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, registerDecorator, ValidateNested } from 'class-validator';

/** A rule on one field of a fault, given the whole fault: the problem, or null when the value is fine. */
type FaultRule = (value: unknown, fault: FaultSettingsDto) => string | null;

/** Applies a FaultRule to a field, missing or not: the rules say which kinds need, allow or refuse it. */
function Checked(rule: FaultRule): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'faultRule',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value, args) => rule(value, args!.object as FaultSettingsDto) === null,
        defaultMessage: (args) => rule(args!.value, args!.object as FaultSettingsDto) ?? '',
      },
    });
}

const kinds = (list: readonly FaultKind[]) => list.join(', ');
const isWhole = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** A field only some kinds take: required by `required`, refused for the kinds outside `allowed`. */
function onlyFor(field: string, allowed: readonly FaultKind[], required: readonly FaultKind[], check: (value: unknown) => string | null): FaultRule {
  return (value, fault) => {
    if (!FAULT_KINDS.includes(fault.kind)) return null;
    if (value === undefined) return required.includes(fault.kind) ? `${field} is required for ${fault.kind}` : null;
    if (!allowed.includes(fault.kind)) return `${field} is only for ${kinds(allowed)}, not ${fault.kind}`;
    return check(value);
  };
}

/** double-click is the load tool's: no instance of the service takes part in it. */
const AT_AN_INSTANCE = FAULT_KINDS.filter((kind) => kind !== 'double-click');
const frequencies = (fault: FaultSettingsDto) => (['once', 'every', 'probability'] as const).filter((f) => fault[f] !== undefined);
/** At most one of once, every and probability: two would say different things about the same fault. */
function frequency(field: 'once' | 'every' | 'probability', check: (value: unknown) => string | null): FaultRule {
  return (value, fault) => {
    if (value === undefined) return null;
    const given = frequencies(fault);
    if (given.length > 1) return `give at most one of once, every and probability (got ${given.join(' and ')})`;
    return onlyFor(field, FAULTS_AT_A_POINT, [], check)(value, fault);
  };
}

/** One fault of a run or a reset (FaultSettings): every cross-field rule of the contract, each naming its field. */
export class FaultSettingsDto implements FaultSettings {
  @ApiPropertyOptional({ enum: FAULT_KINDS })
  @IsIn(FAULT_KINDS)
  kind!: FaultKind;

  @ApiPropertyOptional({ enum: FAULT_POINT_NAMES, description: `Required for ${kinds(FAULTS_AT_A_POINT)}; refused for the others.` })
  @Checked(onlyFor('at', FAULTS_AT_A_POINT, FAULTS_AT_A_POINT, (v) => (FAULT_POINT_NAMES.includes(v as FaultPointName) ? null : `at must be one of: ${FAULT_POINT_NAMES.join(', ')}`)))
  at?: FaultPointName;

  @ApiPropertyOptional({ description: 'Fire once, at the first passage over all instances (the default).' })
  @Checked(frequency('once', (v) => (v === true ? null : 'once must be true when given')))
  once?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: FAULT_LIMITS.maxEvery, description: 'Fire at every Nth passage, counted over all instances.' })
  @Checked(frequency('every', (v) => (isWhole(v, 1, FAULT_LIMITS.maxEvery) ? null : `every must be a whole number from 1 to ${FAULT_LIMITS.maxEvery}`)))
  every?: number;

  @ApiPropertyOptional({ minimum: 0, exclusiveMinimum: true, maximum: 1, description: 'Fire at each passage with this probability.' })
  @Checked(frequency('probability', (v) => (typeof v === 'number' && v > 0 && v <= 1 ? null : 'probability must be a number above 0 and at most 1')))
  probability?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: FAULT_LIMITS.maxDurationMs, description: `Required for ${kinds(FAULTS_WITH_DURATION)}.` })
  @Checked(onlyFor('durationMs', FAULTS_WITH_DURATION, FAULTS_WITH_DURATION, (v) => (isWhole(v, 1, FAULT_LIMITS.maxDurationMs) ? null : `durationMs must be a whole number of ms from 1 to ${FAULT_LIMITS.maxDurationMs}`)))
  durationMs?: number;

  @ApiPropertyOptional({ minimum: -FAULT_LIMITS.maxClockOffsetMs, maximum: FAULT_LIMITS.maxClockOffsetMs, description: 'clock-offset only (required): ± ms, not 0.' })
  @Checked(
    onlyFor('offsetMs', ['clock-offset'], ['clock-offset'], (v) =>
      isWhole(v, -FAULT_LIMITS.maxClockOffsetMs, FAULT_LIMITS.maxClockOffsetMs) && v !== 0 ? null : `offsetMs must be a whole number of ms, not 0, within ±${FAULT_LIMITS.maxClockOffsetMs}`,
    ),
  )
  offsetMs?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Index of the instance among the live ones in port order; every instance when omitted. Required for clock-offset (all clocks shifted alike show nothing).' })
  @Checked(onlyFor('instance', AT_AN_INSTANCE, ['clock-offset'], (v) => (isWhole(v, 0, Number.MAX_SAFE_INTEGER) ? null : 'instance must be a whole number from 0')))
  instance?: number;

  @ApiPropertyOptional({ minimum: 2, maximum: FAULT_LIMITS.maxCopies, description: 'double-click only: copies of each order sent at once.' })
  @Checked(onlyFor('copies', ['double-click'], [], (v) => (isWhole(v, 2, FAULT_LIMITS.maxCopies) ? null : `copies must be a whole number from 2 to ${FAULT_LIMITS.maxCopies}`)))
  copies?: number;

  @ApiPropertyOptional({ description: 'double-click only: whether the copies carry an idempotency key (default true).' })
  @Checked(onlyFor('idempotencyKey', ['double-click'], [], (v) => (typeof v === 'boolean' ? null : 'idempotencyKey must be true or false')))
  idempotencyKey?: boolean;
}

/** The `faults` field of a run, a batch and a reset. */
export function FaultsField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: FaultSettingsDto, isArray: true, maxItems: FAULT_LIMITS.maxFaultsPerRun, description: 'Faults injected at the fault points during the run.' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(FAULT_LIMITS.maxFaultsPerRun),
    IsObject({ each: true, message: 'each fault must be an object: { kind, at, … }' }),
    ValidateNested({ each: true }),
    Type(() => FaultSettingsDto),
  );
}
