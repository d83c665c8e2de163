import { PITFALL_PRESETS } from '@oversell/contracts';
import { UsageError } from './cli-options';
import { parsePitfallsArgs } from './pitfalls';

describe('parsePitfallsArgs', () => {
  it('runs every preset once on 2 instances by default', () => {
    expect(parsePitfallsArgs([])).toMatchObject({ presets: [...PITFALL_PRESETS], repeat: 1, instances: 2, strict: false, command: 'npm run pitfalls' });
  });

  it('takes --preset repeated or as a comma list, each preset once, in the order given', () => {
    const options = parsePitfallsArgs(['--preset', 'double-click,mis-deletion', '--preset', 'optimistic-retry-storm', '--preset', 'double-click', '--repeat', '3', '--strict']);
    expect(options.presets.map((p) => p.name)).toEqual(['double-click', 'mis-deletion', 'optimistic-retry-storm']);
    expect(options).toMatchObject({ repeat: 3, strict: true });
  });

  it('refuses an unknown preset, naming it and listing the valid ones', () => {
    expect(() => parsePitfallsArgs(['--preset', 'double-click,no-such'])).toThrow(UsageError);
    expect(() => parsePitfallsArgs(['--preset', 'no-such'])).toThrow(`--preset: unknown no-such; valid: ${PITFALL_PRESETS.map((p) => p.name).join(', ')}`);
  });

  it('refuses a repeat that is not a whole number from 1', () => {
    expect(() => parsePitfallsArgs(['--repeat', '0'])).toThrow('--repeat must be a whole number from 1 to 1000 (got 0)');
  });
});
