import type { VectorFilter, VectorMatch, VectorMetadata } from '#core/vectors/store';

const INITIAL_CAPACITY = 1024;

/**
 * One merchant's vectors in memory, for exact brute-force cosine: every stored vector is unit
 * length, so a score is a dot product. Stored by dimension (one Float32Array column per
 * dimension), because the feature vectors are sparse (core/vectors/features.ts: one-hot blocks; a
 * find-similar query has about 6 non-zero dimensions of 64): a query adds up only the columns where
 * it is non-zero, each a sequential pass, which is exact (the other terms are 0) and about ten times
 * less work than the full dot product. 100k rows of 64 floats is 25.6 MB.
 */
export class VectorMatrix {
  private columns: Float32Array[];
  private capacity = INITIAL_CAPACITY;
  private readonly ids: string[] = [];
  private readonly metadata: VectorMetadata[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(readonly dimension: number) {
    this.columns = Array.from({ length: dimension }, () => new Float32Array(INITIAL_CAPACITY));
  }

  get size(): number {
    return this.ids.length;
  }

  /** Adds the row, or replaces the one stored under the same id. */
  upsert(id: string, vector: Float32Array, metadata: VectorMetadata): void {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if (row >= this.capacity) this.grow();
      this.ids.push(id);
      this.metadata.push(metadata);
      this.rowOf.set(id, row);
    } else {
      this.metadata[row] = metadata;
    }
    for (let i = 0; i < this.dimension; i += 1) (this.columns[i] as Float32Array)[row] = vector[i] ?? 0;
  }

  /** The `topK` rows most similar to the (unit-length) query, best first (ties: the row stored first). */
  query(vector: Float32Array, topK: number, filter: VectorFilter | undefined): VectorMatch[] {
    const count = this.ids.length;
    const scores = new Float32Array(count);
    for (let i = 0; i < this.dimension; i += 1) {
      const weight = vector[i] ?? 0;
      if (weight === 0) continue;
      const column = this.columns[i] as Float32Array;
      for (let row = 0; row < count; row += 1) scores[row] = (scores[row] as number) + (column[row] as number) * weight;
    }
    // The best so far, kept sorted (best first): top-k is at most 100, so insertion is cheap.
    const rows: number[] = [];
    const best: number[] = [];
    for (let row = 0; row < count; row += 1) {
      const score = scores[row] as number;
      if (rows.length === topK && score <= (best[topK - 1] as number)) continue;
      if (filter !== undefined && !matches(this.metadata[row] as VectorMetadata, filter)) continue;
      let at = rows.length === topK ? topK - 1 : rows.length;
      while (at > 0 && (best[at - 1] as number) < score) at -= 1;
      rows.splice(at, 0, row);
      best.splice(at, 0, score);
      if (rows.length > topK) {
        rows.pop();
        best.pop();
      }
    }
    return rows.map((row, i) => ({ id: this.ids[row] as string, score: best[i] as number, metadata: this.metadata[row] as VectorMetadata }));
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = this.columns.map((column) => {
      const grown = new Float32Array(this.capacity);
      grown.set(column);
      return grown;
    });
  }
}

const matches = (metadata: VectorMetadata, filter: VectorFilter): boolean =>
  (filter.outcome === undefined || metadata.outcome === filter.outcome) && (filter.strategy === undefined || metadata.strategy === filter.strategy);
