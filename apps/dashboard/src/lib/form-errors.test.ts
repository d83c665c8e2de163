import { faultSettingsProblems } from '@oversell/contracts';
import { describe, expect, it } from 'vitest';
import { fieldProblems, formErrors, visibleFields } from './form-errors';
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

describe('formErrors', () => {
  const visible = visibleFields(DEFAULT_FORM_VALUES, false);
  const problems = faultSettingsProblems([{ kind: 'pause', at: 'lock-acquired' }, { kind: 'clock-offset', offsetMs: 5, instance: 0 }, 'crash']);

  it("shows the fault rules' problems next to their fields in the page's language, one not tied to a field on top", () => {
    expect(formErrors(null, visible, 'zh-CN', 3, problems)).toEqual({
      byField: {},
      byFault: { 'faults[0].durationMs': 'pause 故障需要 durationMs，取 1 到 30000 之间的整数', 'faults[2]': '每个故障都必须是对象' },
      general: '每个故障都必须是对象',
    });
    expect(formErrors(null, visible, 'en', 3, problems).byFault['faults[0].durationMs']).toBe('a pause fault needs durationMs, a whole number from 1 to 30000');
  });
});
