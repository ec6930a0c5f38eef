import fc from "fast-check";

/**
 * The fuzzer's one source of randomness: a seeded xorshift32 generator, so that a seed names a run
 * (its choices; what the server answers may still depend on its clock). Values of fast-check
 * arbitraries are drawn with a seed taken from it.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A uniform 32-bit unsigned integer. */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return n <= 0 ? 0 : this.next() % n;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() / 0x1_0000_0000 < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** One value of a fast-check arbitrary. */
  draw<T>(arbitrary: fc.Arbitrary<T>): T {
    return fc.sample(arbitrary, { seed: this.next() | 0, numRuns: 1 })[0];
  }
}
