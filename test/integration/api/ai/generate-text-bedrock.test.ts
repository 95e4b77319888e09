/**
 * POST /api/v1/ai/generate and GET /api/v1/ai/ping through the Bedrock adapter (AI_PROVIDER=bedrock)
 * against a loopback fake of Bedrock Runtime's Converse API (test/fakes/bedrock-converse-api.ts):
 * what the adapter sends (system and user turns, inference settings, signed request), token usage
 * and cost_usd from the price table, and the model's failures as the envelope: an error is 502
 * `upstream_error`, no answer within AI_TIMEOUT_MS (here 1 s) is 504 `upstream_timeout`, never a
 * hang, and neither is cached. The runtime reads its environment once, so the stack and the
 * fixtures that load it are imported after the fake has started and the environment is set; the
 * environment is restored afterwards for the files that follow in the same process.
 */
import type { LocalStack } from '#lib/local/local-stack';
import { type BedrockConverseApi, FAKE_USAGE, startBedrockConverseApi } from '#test/fakes/bedrock-converse-api';
import { call } from '#test/fixtures/http';
import type { Tenant } from '#test/fixtures/tenants';

type Generation = { text: string; model: string; tokens_used: number; cached: boolean; latency_ms: number; cost_usd: number | null };
type Body = Generation & { data: Generation; error: { code: string; message: string; request_id: string } };

const MODEL_ID = 'anthropic.claude-3-haiku-20240307-v1:0';
const TIMEOUT_MS = 1000;
const ENVIRONMENT = {
  AI_PROVIDER: 'bedrock',
  BEDROCK_MODEL_ID: MODEL_ID,
  AI_TIMEOUT_MS: String(TIMEOUT_MS),
  AWS_ACCESS_KEY_ID: 'AKIDLOCALTEST',
  AWS_SECRET_ACCESS_KEY: 'local-test-secret',
} as const;

describe('AI generation through the Bedrock adapter', () => {
  let fake: BedrockConverseApi;
  let stack: LocalStack;
  let tenant: Tenant;
  const saved: Record<string, string | undefined> = {};

  const post = (body: unknown) => call<Body>(`${stack.api_url}/ai/generate`, { method: 'POST', key: tenant.key, body });

  beforeAll(async () => {
    fake = await startBedrockConverseApi();
    for (const [name, value] of Object.entries({ ...ENVIRONMENT, BEDROCK_ENDPOINT: fake.url })) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const { startTestStack } = await import('#test/fixtures/local-stack');
    const { newTenant, UNLIMITED } = await import('#test/fixtures/tenants');
    stack = await startTestStack();
    tenant = await newTenant(['write'], UNLIMITED);
  }, 30_000);

  afterAll(async () => {
    await stack?.stop();
    await fake?.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  beforeEach(() => {
    fake.mode = 'answer';
    fake.requests.length = 0;
  });

  it("answers A with the model's text, its token usage and its id", async () => {
    // Act
    const response = await post({
      use_case: 'weekly_digest',
      system_prompt: 'Summarise.',
      user_prompt: 'Recovered 12 of 20.',
      max_tokens: 300,
      temperature: 1.5,
    });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ text: fake.answerText, model: MODEL_ID, tokens_used: FAKE_USAGE.totalTokens, cached: false });
    // 120 input tokens at $0.25 and 30 output tokens at $1.25 per million.
    expect(response.body.cost_usd).toBe(0.000068);
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.modelId).toBe(MODEL_ID);
    expect(sent?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\//);
    expect(sent?.body.system?.[0]?.text).toContain('Summarise.');
    expect(sent?.body.messages).toEqual([{ role: 'user', content: [{ text: 'Recovered 12 of 20.' }] }]);
    // Converse takes temperatures of 0-1: the API's 1.5 is clamped.
    expect(sent?.body.inferenceConfig).toEqual({ maxTokens: 300, temperature: 1 });
  });

  it("answers B in the envelope with cost_usd, and sends the template's prompt without card data or email", async () => {
    // Act
    const response = await post({
      prompt_template: 'win_back',
      context: { customer_name: 'Jane', offer: 'reply to jane@example.com, card 4242 4242 4242 4242 cvv 123', currency: 'eur', language: 'fr' },
    });
    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ text: fake.answerText, model: MODEL_ID, tokens_used: 150, cost_usd: 0.000068 });
    const sent = JSON.stringify(fake.requests[0]?.body);
    expect(sent).toContain('Write the win-back message.');
    expect(sent).toContain('Customer name: Jane');
    expect(sent).toContain('Offer: reply to [customer email], card [card number removed] cvv [removed]');
    expect(sent).toContain('Answer in this language: fr.');
    expect(sent).not.toMatch(/4242|jane@|cvv 123/);
  });

  it('masks the name for a decline explanation and caches its answer', async () => {
    // Prepare
    const body = { use_case: 'decline_explanation', system_prompt: 'Explain.', user_prompt: 'customer_name: Jane Doe, decline do_not_honor' };
    // Act
    const first = await post(body);
    const second = await post(body);
    // Assess
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body.messages?.[0]?.content[0]?.text).toBe('customer_name: [customer name], decline do_not_honor');
    expect([first.body.cached, second.body.cached]).toEqual([false, true]);
    expect(second.body).toMatchObject({ text: fake.answerText, model: MODEL_ID, tokens_used: 150, cost_usd: 0 });
  });

  it.each(['server_error', 'validation_error'] as const)('answers a model %s with 502 upstream_error in the envelope', async (mode) => {
    // Prepare
    fake.mode = mode;
    // Act
    const response = await post({ use_case: 'campaign_copy', system_prompt: 'Write.', user_prompt: 'Autumn' });
    // Assess
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({
      code: 'upstream_error',
      message: 'The AI model failed to answer. Retry later.',
      request_id: expect.any(String),
    });
  });

  it('answers 504 upstream_timeout once AI_TIMEOUT_MS has passed, never hanging, and caches nothing', async () => {
    // Prepare
    fake.mode = 'hang';
    const body = { use_case: 'retry_scoring', system_prompt: 'Score.', user_prompt: 'insufficient_funds, attempt 2' };
    const started = Date.now();
    // Act
    const response = await post(body);
    const elapsed = Date.now() - started;
    fake.mode = 'answer';
    const after = await post(body);
    // Assess
    expect(response.status).toBe(504);
    expect(response.body.error).toMatchObject({ code: 'upstream_timeout', message: `The AI model did not answer within ${TIMEOUT_MS} ms. Retry later.` });
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 4000);
    expect(after.body.cached).toBe(false);
  }, 15_000);

  describe('GET /api/v1/ai/ping', () => {
    it('answers with the Bedrock model id and its answer', async () => {
      // Act
      const response = await call<Record<string, unknown>>(`${stack.api_url}/ai/ping`);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'ok', model: MODEL_ID, response: fake.answerText });
      expect(fake.requests[0]?.body.inferenceConfig).toEqual({ maxTokens: 10, temperature: 0 });
    });

    it.each([
      ['server_error', 502, 'upstream_error'],
      ['hang', 504, 'upstream_timeout'],
    ] as const)(
      'answers a model in mode %s with %i %s',
      async (mode, status, code) => {
        // Prepare
        fake.mode = mode;
        // Act
        const response = await call<Body>(`${stack.api_url}/ai/ping`);
        // Assess
        expect(response.status).toBe(status);
        expect(response.body.error.code).toBe(code);
      },
      15_000,
    );
  });
});
