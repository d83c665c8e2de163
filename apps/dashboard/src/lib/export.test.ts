import { describe, expect, it } from 'vitest';
import { toCsv, toJsonRows } from './export';

describe('toCsv', () => {
  it('quotes only the fields that need it (quotes doubled), keeps numbers as numbers and a missing figure empty', () => {
    const csv = toCsv({
      columns: ['name', 'count', 'note'],
      rows: [
        ['plain', 42, undefined],
        ['say "hi"', 0.5, 'a, b'],
        ['two\nlines', null, 'x\r\ny'],
      ],
    });
    expect(csv).toBe('name,count,note\r\nplain,42,\r\n"say ""hi""",0.5,"a, b"\r\n"two\nlines",,"x\r\ny"\r\n');
  });
});

describe('toJsonRows', () => {
  it('keys each row by column, numbers as numbers, a missing figure as null', () => {
    expect(toJsonRows({ columns: ['a', 'b'], rows: [[1, undefined]] })).toEqual([{ a: 1, b: null }]);
  });
});
