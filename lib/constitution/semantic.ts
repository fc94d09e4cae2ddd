import type { Constitution, Principle } from "./schema";
import { splitNotFor } from "./text";

/**
 * The semantic step's data: the texts of a constitution that get embeddings, and an
 * index of their vectors that gives a prompt's cosine similarity to each domain and
 * principle. The vectors themselves come through an EmbeddingPort (lib/llm).
 */

/** What the engine needs from an embedding model: one vector per text, in the texts' order. */
export type EmbeddingPort = {
  model: string;
  embed(texts: string[], ctx?: { requestId?: string }): Promise<number[][]>;
};

/** One text to embed, named `domain:<name>` or `principle:<id>`. */
export type SemanticDocument = { key: string; text: string };

const DOMAIN_PREFIX = "domain:";
const PRINCIPLE_PREFIX = "principle:";

export const domainKey = (domain: string) => `${DOMAIN_PREFIX}${domain}`;
export const principleKey = (id: string) => `${PRINCIPLE_PREFIX}${id}`;

/** Labelled lines, empty ones left out, so that a missing field never changes the other lines. */
function lines(parts: [label: string, value: string][]): string {
  return parts
    .filter(([, value]) => value !== "")
    .map(([label, value]) => (label ? `${label}: ${value}` : value))
    .join("\n");
}

function principleText(p: Principle): string {
  return lines([
    ["", p.title],
    ["", p.rule],
    ["Keywords", p.keywords.join(", ")],
    ["Allowed", p.examples_allow.join("; ")],
    ["Denied", p.examples_deny.join("; ")],
  ]);
}

/**
 * The texts to embed, in a fixed order: each applicable overlay (domains by name; its
 * description without the `NOT for:` sentence, keywords and principle titles), then
 * each principle once (core first, then the overlays' by domain name). Excluded overlays are
 * never applied, so neither they nor their principles are embedded. A text depends
 * only on the domain or principle it describes: one that is unchanged keeps its text,
 * and so its stored vector, across versions.
 */
export function semanticDocuments(constitution: Constitution): SemanticDocument[] {
  const overlays = Object.values(constitution.overlays)
    .filter((o) => !o.excluded)
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  const domains = overlays.map((o) => ({
    key: domainKey(o.domain),
    text: lines([
      ["", splitNotFor(o.description).covers],
      ["Keywords", o.keywords.join(", ")],
      ["Principles", o.additional_principles.map((p) => p.title).join("; ")],
    ]),
  }));
  // An id two overlays define is one principle to the scores (keyed by id): the first definition by domain name is embedded.
  const seen = new Set<string>();
  const principles = [...constitution.core, ...overlays.flatMap((o) => o.additional_principles)]
    .filter((p) => !seen.has(p.id) && seen.add(p.id))
    .map((p) => ({ key: principleKey(p.id), text: principleText(p) }));
  return [...domains, ...principles];
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The vector scaled to length 1; a zero vector stays zero (it is similar to nothing). */
function normalize(v: readonly number[]): number[] {
  const length = Math.sqrt(dot(v, v));
  return length === 0 ? v.map(() => 0) : v.map((x) => x / length);
}

/** Cosine similarity in -1..1; 0 when either vector is zero. Throws when the dimensions differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length)
    throw new Error(
      `cosine: vectors of ${a.length} and ${b.length} dimensions cannot be compared.`,
    );
  return dot(normalize(a), normalize(b));
}

/**
 * The embeddings of one constitution under one model, keyed as semanticDocuments names
 * them. Vectors are normalised once here, so a prompt costs one dot product per text.
 */
export class SemanticIndex {
  private readonly domains: [string, number[]][] = [];
  private readonly principles: [string, number[]][] = [];
  /** Dimensions of every vector in the index (0 when it is empty). */
  readonly dimensions: number;

  constructor(
    readonly model: string,
    vectors: ReadonlyMap<string, readonly number[]>,
  ) {
    let dimensions: number | undefined;
    for (const [key, vector] of vectors) {
      dimensions ??= vector.length;
      if (vector.length !== dimensions)
        throw new Error(
          `Embeddings of ${model}: ${key} has ${vector.length} dimensions, the others ${dimensions}.`,
        );
      if (key.startsWith(DOMAIN_PREFIX))
        this.domains.push([key.slice(DOMAIN_PREFIX.length), normalize(vector)]);
      else if (key.startsWith(PRINCIPLE_PREFIX))
        this.principles.push([key.slice(PRINCIPLE_PREFIX.length), normalize(vector)]);
      else
        throw new Error(`Embeddings of ${model}: "${key}" names neither a domain nor a principle.`);
    }
    this.dimensions = dimensions ?? 0;
  }

  /** The prompt's cosine similarity to each domain (by name) and principle (by id). */
  scores(promptVector: readonly number[]): {
    domains: Map<string, number>;
    principles: Map<string, number>;
  } {
    if (this.dimensions !== 0 && promptVector.length !== this.dimensions) {
      throw new Error(
        `The prompt's embedding has ${promptVector.length} dimensions, but the index of ${this.model} has ${this.dimensions}: were they made by different models?`,
      );
    }
    const prompt = normalize(promptVector);
    const similarities = (entries: [string, number[]][]) =>
      new Map(entries.map(([name, v]) => [name, dot(prompt, v)]));
    return { domains: similarities(this.domains), principles: similarities(this.principles) };
  }
}
