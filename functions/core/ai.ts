/**
 * The port every call to a language model goes through (DESIGN §2, ports and adapters): Amazon
 * Bedrock on AWS, a deterministic local model elsewhere (functions/adapters/ai). Domain code
 * depends on this, never on an adapter; `AI_PROVIDER` picks the adapter.
 */
export interface AiRequest {
  /** Instructions: what the model is and how it must answer. */
  readonly system: string;
  /** The user turn. */
  readonly prompt: string;
  /** Upper bound of the answer's length, in tokens. */
  readonly maxTokens: number;
  /** 0 (deterministic) - 2. */
  readonly temperature: number;
  /** Aborts the call (a caller's timeout); an adapter that cannot abort ignores it. */
  readonly signal?: AbortSignal;
}

export interface AiResponse {
  readonly text: string;
  /** The model that answered; the local adapter says in so many words that it is not an LLM. */
  readonly model: string;
  /** Input and output tokens together, as the model counts them. */
  readonly tokensUsed: number;
}

export interface AiModel {
  generate(request: AiRequest): Promise<AiResponse>;
}
