import type { VectorFilter, VectorMatch, VectorMetadata } from '#core/vectors/store';

/**
 * One merchant's vectors in memory, row by row in one Float32Array, for exact brute-force cosine:
 * every stored vector is unit length, so a score is a dot product over `dimension` floats.
 * 100k rows of 64 floats is 25.6 MB and one pass over them takes a few milliseconds.
 */
export class VectorMatrix {
  private data: Float32Array;
  private readonly ids: string[] = [];
  private readonly metadata: VectorMetadata[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(readonly dimension: number) {
    this.data = new Float32Array(dimension * 1024);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Adds the row, or replaces the one stored under the same id. */
  upsert(id: string, vector: Float32Array, metadata: VectorMetadata): void {
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dimension > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.metadata.push(metadata);
      this.rowOf.set(id, row);
    } else {
      this.metadata[row] = metadata;
    }
    this.data.set(vector.subarray(0, this.dimension), row * this.dimension);
  }

  /** The `topK` rows most similar to the (unit-length) query, best first (ties: the row stored first). */
  query(vector: Float32Array, topK: number, filter: VectorFilter | undefined): VectorMatch[] {
    const dimension = this.dimension;
    const data = this.data;
    // The best so far, kept sorted (best first): top-k is at most 100, so insertion is cheap.
    const rows: number[] = [];
    const scores: number[] = [];
    for (let row = 0; row < this.ids.length; row += 1) {
      if (filter !== undefined && !matches(this.metadata[row] as VectorMetadata, filter)) continue;
      let dot = 0;
      const base = row * dimension;
      for (let i = 0; i < dimension; i += 1) dot += (data[base + i] as number) * (vector[i] as number);
      if (rows.length === topK && dot <= (scores[topK - 1] as number)) continue;
      let at = rows.length === topK ? topK - 1 : rows.length;
      while (at > 0 && (scores[at - 1] as number) < dot) at -= 1;
      rows.splice(at, 0, row);
      scores.splice(at, 0, dot);
      if (rows.length > topK) {
        rows.pop();
        scores.pop();
      }
    }
    return rows.map((row, i) => ({ id: this.ids[row] as string, score: scores[i] as number, metadata: this.metadata[row] as VectorMetadata }));
  }
}

const matches = (metadata: VectorMetadata, filter: VectorFilter): boolean =>
  (filter.outcome === undefined || metadata.outcome === filter.outcome) && (filter.strategy === undefined || metadata.strategy === filter.strategy);
