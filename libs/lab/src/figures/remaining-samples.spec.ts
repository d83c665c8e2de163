import { RemainingSamples } from './remaining-samples';

describe('RemainingSamples', () => {
  // Second 10 is [10 000, 11 000) ms; its end is 11 000.
  it("reads a second's stock at its end: the sample after it when that one is nearer than the one taken inside it", () => {
    const samples = new RemainingSamples();
    samples.add(10_300, 40); // 0.7 s before the end of second 10, most of its sales still to come
    samples.add(11_250, 15); // 0.25 s after it
    expect(samples.atEndOf(10)).toBe(15);
  });

  it('takes the sample inside the second when it is the nearer one', () => {
    const samples = new RemainingSamples();
    samples.add(10_900, 20);
    samples.add(11_800, 5);
    expect(samples.atEndOf(10)).toBe(20);
  });

  it('has no reading for a second with no sample within a second of its end', () => {
    const samples = new RemainingSamples();
    samples.add(5_000, 50);
    samples.add(14_000, 0);
    expect(samples.atEndOf(10)).toBeUndefined();
    expect(samples.seconds()).toEqual([5, 14]);
  });
});
