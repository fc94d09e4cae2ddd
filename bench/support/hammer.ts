/**
 * Sends `count` HTTP requests, at most `concurrency` at a time, and tallies what came
 * back: the status of every answer (0 for a request that got no answer) and each
 * request's time. Used by bench/key-check.ts and by the key-check server test.
 */
import { performance } from "node:perf_hooks";

export type HammerResult = {
  statuses: Map<number, number>;
  /** Milliseconds per request, sorted. */
  ms: number[];
  /** The first few bodies of answers that were neither 2xx nor 503, to say why. */
  samples: string[];
};

export async function hammer(options: {
  count: number;
  concurrency: number;
  request: (i: number) => Promise<Response>;
}): Promise<HammerResult> {
  const statuses = new Map<number, number>();
  const ms: number[] = [];
  const samples: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < options.count; i = next++) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await options.request(i);
        status = response.status;
        const text = await response.text();
        if ((status < 200 || status >= 300) && status !== 503 && samples.length < 3)
          samples.push(`${status}: ${text.slice(0, 200)}`);
      } catch (error) {
        if (samples.length < 3) samples.push(`no answer: ${String(error)}`);
      }
      ms.push(performance.now() - started);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  ms.sort((a, b) => a - b);
  return { statuses, ms, samples };
}

/** The q-quantile (0..1) of sorted values. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** One line: counts by status, p50 and p99. */
export function summary(label: string, result: HammerResult): string {
  const counts = [...result.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} x ${status}`)
    .join(", ");
  return `${label}: ${counts}; p50 ${quantile(result.ms, 0.5).toFixed(0)} ms, p99 ${quantile(result.ms, 0.99).toFixed(0)} ms`;
}
