import { describe, expect, it } from 'vitest';
import { fieldProblems, visibleFields } from './form-errors';
import { DEFAULT_FORM_VALUES } from './run-form';

describe('fieldProblems', () => {
  const visible = visibleFields(DEFAULT_FORM_VALUES, false);

  it('finds one problem per field: empty where required, else not whole, else out of bounds', () => {
    const problems = fieldProblems({ ...DEFAULT_FORM_VALUES, initialStock: '', connections: '2.5', durationSec: '0', lockTtlMs: '' }, visible);
    expect(problems).toEqual({
      initialStock: { kind: 'required' },
      connections: { kind: 'whole' },
      durationSec: { kind: 'range', min: 1, max: 600 },
    });
  });

  it('checks only the fields shown', () => {
    expect(fieldProblems({ ...DEFAULT_FORM_VALUES, segments: '0', totalRequests: '' }, visible)).toEqual({});
    expect(fieldProblems({ ...DEFAULT_FORM_VALUES, segments: '0' }, visibleFields(DEFAULT_FORM_VALUES, true))).toEqual({ segments: { kind: 'range', min: 1, max: 64 } });
  });

  it('finds nothing in the default form', () => {
    expect(fieldProblems(DEFAULT_FORM_VALUES, visible)).toEqual({});
  });
});
