import { aiModel } from '#adapters/ai/index';
import { pingModel } from '#services/ai-generation';
import { limitAiPing } from '#api/pipeline/rate-limit';
import { defineOperation } from '#api/operation';
import { pingAiSchemas } from './schemas';

/**
 * GET /api/v1/ai/ping (public): a one-word call through the AI port, answered unwrapped as A shows
 * it, `{ status: "ok", model, response, latency_ms }`. Bounded at 5 s (502 when the model fails,
 * 504 past the bound, never a hang); 30 a minute per client address, since each is a real call.
 */
export const pingAi = defineOperation({ auth: 'public', schemas: pingAiSchemas }, async ({ event }) => {
  await limitAiPing(event.requestContext.identity.sourceIp);
  const ping = await pingModel({ model: aiModel });
  return { body: { status: 'ok', model: ping.model, response: ping.response, latency_ms: ping.latencyMs } };
});
