/**
 * What the portfolio model keeps its sums in (issue 33): rows of numbers by small integer ids, so
 * adding or taking out an asset's contribution is a few stores, not string keys looked up in Maps.
 */

/**
 * Sums in rows of `width` numbers, a row per small integer id (a year's utility, a property type):
 * adding an asset's numbers is a few stores, not a string key looked up in a Map of arrays.
 */
export class Grid {
  values: Float64Array;

  constructor(readonly width: number) {
    this.values = new Float64Array(width * 16);
  }

  /** Adds `sign` times the values to row `id`. */
  add(id: number, sign: 1 | -1, a: number, b: number, c = 0, d = 0, e = 0): void {
    const at = id * this.width;
    if (at + this.width > this.values.length) {
      const grown = new Float64Array(Math.max(this.values.length * 2, at + this.width));
      grown.set(this.values);
      this.values = grown;
    }
    const v = this.values;
    const w = this.width;
    v[at] = v[at]! + sign * a;
    v[at + 1] = v[at + 1]! + sign * b;
    if (w > 2) v[at + 2] = v[at + 2]! + sign * c;
    if (w > 3) v[at + 3] = v[at + 3]! + sign * d;
    if (w > 4) v[at + 4] = v[at + 4]! + sign * e;
    // Rounding leaves crumbs when contributions come and go: a row of nothing is no row.
    for (let i = at; i < at + w; i++) if (Math.abs(v[i]!) >= 1e-9) return;
    v.fill(0, at, at + w);
  }

  /** Row `id`'s values, or undefined when it holds nothing. */
  row(id: number): Float64Array | undefined {
    const at = id * this.width;
    if (at + this.width > this.values.length) return undefined;
    for (let i = at; i < at + this.width; i++)
      if (this.values[i] !== 0) return this.values.subarray(at, at + this.width);
    return undefined;
  }

  get rows(): number {
    return this.values.length / this.width;
  }
}

/** Small integer ids for keys (years, property types, countries), in the order first met. */
export class Ids<K> {
  private readonly ids = new Map<K, number>();
  readonly keys: K[] = [];

  of(key: K): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      this.ids.set(key, (id = this.keys.length));
      this.keys.push(key);
    }
    return id;
  }
}
