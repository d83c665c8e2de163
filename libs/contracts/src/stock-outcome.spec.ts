import { stockOutcome, unitsSoldTwice, unitsSoldTwiceSoFar } from './stock-outcome';

describe('unitsSoldTwice', () => {
  it('counts the lost updates before sell-out, where oversold is 0', () => {
    // uuid-lua, lease 100 ms, business 250 ms: sold 66, yet 77 of 100 left.
    expect(unitsSoldTwice({ oversold: 0, lostUpdates: 43 })).toBe(43);
  });

  it('is at least the units sold beyond the stock, also in results from before lostUpdates existed', () => {
    expect(unitsSoldTwice({ oversold: 5, lostUpdates: 5 })).toBe(5);
    expect(unitsSoldTwice({ oversold: 3 })).toBe(3);
    expect(unitsSoldTwice({ oversold: 0, lostUpdates: 0 })).toBe(0);
  });

  it('trusts only MySQL when the store lost its keys', () => {
    expect(unitsSoldTwice({ oversold: 0, lostUpdates: 12, storeLost: true })).toBe(0);
    expect(unitsSoldTwice({ oversold: 2, lostUpdates: 12, storeLost: true })).toBe(2);
  });
});

describe('stockOutcome', () => {
  it('is red for a unit sold twice, whatever else happened', () => {
    expect(stockOutcome({ oversold: 0, lostUpdates: 1, lost: 4 })).toBe('sold-twice');
    expect(stockOutcome({ oversold: 1, storeLost: true })).toBe('sold-twice');
  });

  it('names a lost store, then stranded units, and is green only with neither', () => {
    expect(stockOutcome({ oversold: 0, lostUpdates: 0, storeLost: true })).toBe('store-lost');
    expect(stockOutcome({ oversold: 0, lostUpdates: 0, lost: 6 })).toBe('stranded');
    expect(stockOutcome({ oversold: 0, lostUpdates: 0, lost: 0 })).toBe('held');
  });
});

describe('unitsSoldTwiceSoFar', () => {
  it('is what was counted sold beyond what the store went down by', () => {
    expect(unitsSoldTwiceSoFar(100, 66, 77)).toBe(43);
  });

  it('never goes below 0 for takes not counted yet, nor counts an overdrawn counter as stock', () => {
    expect(unitsSoldTwiceSoFar(100, 20, 70)).toBe(0);
    expect(unitsSoldTwiceSoFar(10, 12, -3)).toBe(2);
  });
});
