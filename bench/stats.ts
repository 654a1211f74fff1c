/** Summaries of timing samples. */
export interface Summary {
  n: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: samples.length > 0 ? Math.max(...samples) : Number.NaN,
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
  };
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}
