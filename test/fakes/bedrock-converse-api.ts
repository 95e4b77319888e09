import { createServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for Amazon Bedrock Runtime's Converse API (`POST /model/{modelId}/converse`,
 * JSON in and out, as the AWS SDK's ConverseCommand sends and reads it; over cleartext HTTP/2, since
 * the Bedrock Runtime client speaks only HTTP/2), for the Bedrock adapter
 * (functions/adapters/ai/bedrock-model.ts) behind `BEDROCK_ENDPOINT`. It answers with a fixed text
 * and usage, and can be switched to fail as Bedrock does (`x-amzn-ErrorType` and `{ message }`), or
 * to hang (never answer) so callers' time-outs can be tested. Records every request it received.
 */
export type BedrockFakeMode = 'answer' | 'server_error' | 'validation_error' | 'hang';

export interface ConverseRequestSeen {
  readonly modelId: string;
  readonly authorization: string | undefined;
  readonly body: {
    readonly system?: ReadonlyArray<{ text: string }>;
    readonly messages?: ReadonlyArray<{ role: string; content: ReadonlyArray<{ text: string }> }>;
    readonly inferenceConfig?: { maxTokens?: number; temperature?: number };
  };
}

export interface BedrockConverseApi {
  readonly url: string;
  readonly requests: ConverseRequestSeen[];
  mode: BedrockFakeMode;
  /** The text the next answers carry. */
  answerText: string;
  stop(): Promise<void>;
}

const ERRORS = {
  server_error: { status: 500, type: 'InternalServerException', message: 'The server encountered an internal error.' },
  validation_error: { status: 400, type: 'ValidationException', message: 'The provided model identifier is invalid.' },
} as const;

export const FAKE_USAGE = { inputTokens: 120, outputTokens: 30, totalTokens: 150 } as const;

export async function startBedrockConverseApi(): Promise<BedrockConverseApi> {
  const requests: ConverseRequestSeen[] = [];
  const sessions = new Set<ServerHttp2Session>();
  const api: BedrockConverseApi = {
    url: '',
    requests,
    mode: 'answer',
    answerText: 'A clear explanation from the fake Bedrock model.',
    stop: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      for (const session of sessions) session.destroy();
      await closed;
    },
  };
  const answer = (request: Http2ServerRequest, response: Http2ServerResponse, raw: string): void => {
    const match = /^\/model\/([^/]+)\/converse$/.exec(new URL(request.url ?? '/', 'http://fake').pathname);
    if (request.method !== 'POST' || match === null) {
      response.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' }).end('{}');
      return;
    }
    requests.push({
      modelId: decodeURIComponent(match[1] ?? ''),
      authorization: request.headers.authorization,
      body: JSON.parse(raw) as ConverseRequestSeen['body'],
    });
    // Never answered: the stream stays open until the caller aborts it or the fake stops.
    if (api.mode === 'hang') return;
    if (api.mode !== 'answer') {
      const error = ERRORS[api.mode];
      response.writeHead(error.status, {
        'content-type': 'application/json',
        'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      });
      response.end(JSON.stringify({ message: error.message }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        output: { message: { role: 'assistant', content: [{ text: api.answerText }] } },
        stopReason: 'end_turn',
        usage: FAKE_USAGE,
        metrics: { latencyMs: 12 },
      }),
    );
  };
  const server: Http2Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(api, { url: `http://127.0.0.1:${port}` });
}
