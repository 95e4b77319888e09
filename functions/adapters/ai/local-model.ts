import { type AiModel, type AiRequest, type AiResponse, LOCAL_MODEL_NAME } from '#core/ai';
import { RETRY_SCORING_TASK_LINE, RULES_BASELINE_LABEL } from '#core/scoring/prompt';

/**
 * The AI adapter for the local stack and tests: deterministic, offline, and honest about what it
 * is, in `model` and in every answer (DESIGN §2: "a deterministic local model that says it is
 * one"). The same request always gets the same answer.
 * - A retry-scoring prompt (core/scoring/prompt.ts) is answered with the strict JSON the enhanced
 *   tier expects, taken from the rules baseline embedded in the prompt: it keeps the baseline's
 *   score and delay, since it knows nothing the rules do not.
 * - Any other prompt gets a short text that quotes the start of the prompt.
 */
export { LOCAL_MODEL_NAME };

const CHARS_PER_TOKEN = 4;
const tokensOf = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

interface Baseline {
  readonly score: number;
  readonly delay_hours: number;
  readonly confidence?: number;
  readonly reasoning?: string;
}

function baselineIn(prompt: string): Baseline | undefined {
  const lines = prompt.split('\n');
  if (!lines.includes(RETRY_SCORING_TASK_LINE)) return undefined;
  const line = lines.find((candidate) => candidate.startsWith(RULES_BASELINE_LABEL));
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line.slice(RULES_BASELINE_LABEL.length)) as Partial<Baseline>;
    return typeof value.score === 'number' && typeof value.delay_hours === 'number' ? (value as Baseline) : undefined;
  } catch {
    return undefined;
  }
}

function answerTo(request: AiRequest): string {
  const baseline = baselineIn(request.prompt);
  if (baseline !== undefined) {
    return JSON.stringify({
      score: baseline.score,
      delay_hours: baseline.delay_hours,
      ...(baseline.confidence === undefined ? {} : { confidence: baseline.confidence }),
      reasoning: `Local deterministic model (no LLM) kept the rules baseline. ${baseline.reasoning ?? ''}`.trim(),
    });
  }
  const opening = request.prompt.trim().split('\n')[0]?.slice(0, 200) ?? '';
  return `[${LOCAL_MODEL_NAME}] This is a deterministic local stand-in for a language model; it received: "${opening}"`.slice(
    0,
    request.maxTokens * CHARS_PER_TOKEN,
  );
}

export const localModel: AiModel = {
  async generate(request: AiRequest): Promise<AiResponse> {
    request.signal?.throwIfAborted();
    const text = answerTo(request);
    const inputTokens = tokensOf(request.system) + tokensOf(request.prompt);
    const outputTokens = tokensOf(text);
    return { text, model: LOCAL_MODEL_NAME, tokensUsed: inputTokens + outputTokens, inputTokens, outputTokens };
  },
};
