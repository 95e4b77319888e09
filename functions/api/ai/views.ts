import type { Generation } from '#services/ai-generation';

/** One record of A's and B's fields (DESIGN §1: both forms carry every field). */
export const generationView = (generation: Generation) => ({
  text: generation.text,
  model: generation.model,
  tokens_used: generation.tokensUsed,
  cached: generation.cached,
  latency_ms: generation.latencyMs,
  cost_usd: generation.costUsd,
});
