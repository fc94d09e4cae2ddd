import { db } from "./client";

export type StoredEmbedding = { textHash: string; vector: number[] };

/**
 * Stored embeddings of constitution texts, keyed by model and the text's sha256. A
 * text's vector never changes under one model, so rows are only ever added: a second
 * write of the same key (two processes embedding at once) keeps the first.
 */
export const constitutionEmbeddings = {
  /** The stored vectors among `hashes` for a model, by hash; missing ones are absent. */
  async get(model: string, hashes: readonly string[]): Promise<Map<string, number[]>> {
    if (hashes.length === 0) return new Map();
    const rows = await db().constitutionEmbedding.findMany({
      where: { model, textHash: { in: [...new Set(hashes)] } },
      select: { textHash: true, vector: true },
    });
    return new Map(rows.map((r) => [r.textHash, r.vector]));
  },

  /** Stores vectors for a model; keys already stored are left as they are. Returns how many rows were added. */
  async putMany(model: string, rows: readonly StoredEmbedding[]): Promise<number> {
    if (rows.length === 0) return 0;
    const { count } = await db().constitutionEmbedding.createMany({
      data: rows.map((r) => ({ model, textHash: r.textHash, vector: r.vector })),
      skipDuplicates: true,
    });
    return count;
  },
};
