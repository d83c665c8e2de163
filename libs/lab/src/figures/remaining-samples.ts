/**
 * A run's remaining stock as sampled while it runs: about once a second, at whatever moment in the
 * second the progress tick comes, and once after the load. The timeline's sold total of a second counts
 * to the end of that second, so its remaining must be read as near that end as the samples allow: the
 * sample taken in the same second can be most of a second early (a sale of 200 units showed 185 sold
 * with 40 left).
 */
export class RemainingSamples {
  private readonly samples: { at: number; remaining: number }[] = [];

  /** `at`: when the stock was read (epoch ms). */
  add(at: number, remaining: number): void {
    this.samples.push({ at, remaining });
  }

  /** The epoch seconds the samples fall in. */
  seconds(): number[] {
    return this.samples.map((sample) => Math.floor(sample.at / 1000));
  }

  /**
   * The stock left at the end of epoch second `second`: the sample nearest that moment, if one was
   * taken within a second of it (the later one on a tie); undefined otherwise.
   */
  atEndOf(second: number): number | undefined {
    const end = (second + 1) * 1000;
    let nearest: { at: number; remaining: number } | undefined;
    for (const sample of this.samples) {
      const distance = Math.abs(sample.at - end);
      if (distance > 1000) continue;
      if (!nearest || distance < Math.abs(nearest.at - end) || (distance === Math.abs(nearest.at - end) && sample.at > nearest.at)) nearest = sample;
    }
    return nearest?.remaining;
  }
}
