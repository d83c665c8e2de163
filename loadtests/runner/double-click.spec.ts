import { doubleClickOf } from './double-click';
import { validateLoadOptions } from './run-load';
import { InvalidFieldError } from './validation';

describe('doubleClickOf', () => {
  it('reads the double click among a run’s faults, with its defaults (2 copies, keyed)', () => {
    expect(doubleClickOf([{ kind: 'pause', at: 'stock-read', durationMs: 5 }, { kind: 'double-click', copies: 4, idempotencyKey: false }])).toEqual({ copies: 4, idempotencyKey: false });
    expect(doubleClickOf([{ kind: 'double-click' }])).toEqual({ copies: 2, idempotencyKey: true });
  });

  it('is undefined for a run without one', () => {
    expect(doubleClickOf(undefined)).toBeUndefined();
    expect(doubleClickOf([{ kind: 'crash', at: 'lock-acquired' }])).toBeUndefined();
  });
});

describe('a double click in the load options', () => {
  const options = { urls: ['http://127.0.0.1:1'], target: 'orders' as const, productId: 1, strategy: 'uuid-lua' as const, profile: { connections: 1, durationSec: 1 } };

  it.each([
    [{ copies: 1, idempotencyKey: true }, 'doubleClick.copies'],
    [{ copies: 11, idempotencyKey: true }, 'doubleClick.copies'],
    [{ copies: 2, idempotencyKey: 'yes' as unknown as boolean }, 'doubleClick.idempotencyKey'],
  ])('is refused when out of its rules (%j), naming the field', (doubleClick, field) => {
    expect(() => validateLoadOptions({ ...options, doubleClick })).toThrow(expect.objectContaining({ field }));
  });

  it('is refused on the no-op, which takes no key', () => {
    expect(() => validateLoadOptions({ ...options, target: 'noop', doubleClick: { copies: 2, idempotencyKey: true } })).toThrow(InvalidFieldError);
  });
});
