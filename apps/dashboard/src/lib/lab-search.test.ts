import { findLesson, lessonSides } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FORM_VALUES, formFromParams } from './run-form';
import { labSearchFor, paramsFromLabSearch, validateLabSearch } from './lab-search';

describe('the Lab address filled with a lesson side', () => {
  it('round-trips a side with a fault into the form', () => {
    const { side } = lessonSides(findLesson('set-nx-px')!)[0];
    const search = validateLabSearch({ ...labSearchFor(side.strategy, side.settings) } as Record<string, unknown>);
    const params = paramsFromLabSearch(search)!;
    const form = formFromParams(params, DEFAULT_FORM_VALUES)!;
    expect(form.strategy).toBe('naive-setnx');
    expect(form.initialStock).toBe('5');
    expect(form.lockTtlMs).toBe('1200');
    expect(form.connections).toBe('10');
    expect(form.faults).toHaveLength(1);
    expect(form.faults[0].kind).toBe('pause');
  });

  it('drops what is not a setting and leaves a plain address empty', () => {
    expect(validateLabSearch({ strategy: 'nope', initialStock: 'x', faults: 'y', other: 1 })).toEqual({});
    expect(paramsFromLabSearch({ strategy: 'no-lock' })).toBeUndefined();
  });
});
