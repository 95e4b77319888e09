import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * AWS API calls over HTTPS with SigV4, without a service's SDK client: the signer and the default
 * credential chain are the ones every bundle already carries through the DynamoDB client, so an
 * adapter built on this adds a few KB where a client adds hundreds (DESIGN §2: bundle sizes).
 */

/** Static credentials, or a provider of them (the default chain when omitted). */
export type AwsCredentials =
  | { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string }
  | (() => Promise<{ readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string }>);

/** Where and as whom an adapter calls a service: tests point `endpoint` at a loopback fake. */
export interface AwsClientConfig {
  readonly region?: string;
  /** Base URL (`https://acm.us-east-1.amazonaws.com`); the service's public endpoint when omitted. */
  readonly endpoint?: string;
  readonly credentials?: AwsCredentials;
}

/** A service's error answer: `name` is AWS's error code (`EntityNotFound`, `ResourceInUseException`). */
export class AwsServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = code;
  }
}

type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: SourceData): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 (keyed: HMAC) for the signer, from node:crypto. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

export interface SignedRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the endpoint, already encoded (`/2020-05-31/distribution-tenant/dt_7`). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface SignedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

const MAX_ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 20_000;
const THROTTLING_CODES = new Set(['Throttling', 'ThrottlingException', 'TooManyRequestsException', 'RequestLimitExceeded', 'SlowDown']);

/**
 * One service's signed caller. `failure` reads the service's error code and message from an error
 * answer's body (REST-XML and JSON differ). Throttling, 5xx and network failures are tried again,
 * up to three attempts with jittered backoff, as the SDK's standard retry mode does.
 */
export class SignedAwsClient {
  private readonly signer: SignatureV4;
  private readonly base: URL;

  constructor(
    service: string,
    defaultEndpoint: (region: string) => string,
    config: AwsClientConfig & { readonly region: string },
    private readonly failure: (response: SignedResponse) => { code: string; message: string },
  ) {
    this.base = new URL(config.endpoint ?? defaultEndpoint(config.region));
    this.signer = new SignatureV4({
      service,
      region: config.region,
      credentials: config.credentials ?? defaultProvider(),
      sha256: Sha256,
      uriEscapePath: true,
    });
  }

  /** Sends `request`, answering a 2xx response; an error answer throws an `AwsServiceError`. */
  async send(request: SignedRequest): Promise<SignedResponse> {
    for (let attempt = 1; ; attempt += 1) {
      let response: SignedResponse;
      try {
        response = await this.attempt(request);
      } catch (error) {
        // No answer (a reset connection, a timeout): try again while attempts remain.
        if (attempt >= MAX_ATTEMPTS) throw error;
        await backoff(attempt);
        continue;
      }
      if (response.status >= 200 && response.status < 300) return response;
      const { code, message } = this.failure(response);
      const retryable = response.status >= 500 || response.status === 429 || THROTTLING_CODES.has(code);
      if (!retryable || attempt >= MAX_ATTEMPTS) throw new AwsServiceError(code, message, response.status);
      await backoff(attempt);
    }
  }

  private async attempt(request: SignedRequest): Promise<SignedResponse> {
    const basePath = this.base.pathname.replace(/\/$/, '');
    const signed = await this.signer.sign({
      method: request.method,
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port === '' ? undefined : Number(this.base.port),
      path: `${basePath}${request.path}`,
      query: { ...request.query },
      headers: { ...request.headers, host: this.base.host },
      body: request.body,
    });
    const url = new URL(`${basePath}${request.path}`, this.base);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    // fetch sets Host itself, from the same URL the signature covers.
    const { host: _host, ...headers } = signed.headers;
    const response = await fetch(url, {
      method: request.method,
      headers,
      body: request.body,
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    return { status: response.status, headers: response.headers, body: await response.text() };
  }
}

const backoff = (attempt: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 100 * 2 ** attempt));
