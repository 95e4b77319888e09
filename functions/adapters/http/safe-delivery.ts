import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AppError } from '#core/errors';
import { type AddressPolicy, checkResolvedAddresses, hostOf, parseWebhookUrl } from '#core/webhooks/address-policy';
import type { AddressResolver } from '../dns/resolver';

/**
 * The only way outbound webhooks reach a receiver (SSRF-safe, DESIGN §2c): the URL is checked,
 * its host resolved now (a name that resolved public at save may resolve private at send: DNS
 * rebinding), every address must be deliverable, and the connection goes to the resolved address
 * itself (the `lookup` option pins it; Host and SNI keep the name). Redirects are never followed
 * (a 3xx is a failed delivery), the whole exchange is cut at 15 s and the answer at 64 KB.
 * Nothing here throws for the receiver's behaviour: the result says what happened.
 */

export const DELIVERY_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface DeliveryRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly resolver: AddressResolver;
  readonly policy: AddressPolicy;
  /** @default DELIVERY_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** @default MAX_RESPONSE_BYTES */
  readonly maxResponseBytes?: number;
  /** Keep the answer's body (as text) in the result, for callers that read it (the session proxy's upstream). */
  readonly keepBody?: boolean;
}

export type DeliveryError = 'refused_address' | 'dns_error' | 'timeout' | 'response_too_large' | 'connection_error' | 'redirect' | 'http_status';

export interface DeliveryResult {
  /** 2xx within the time and size limits. */
  readonly success: boolean;
  /** The receiver's status code; null when none was received. */
  readonly status: number | null;
  /** Headers of interest: `webhook-delivery` (a receiver may answer `disable`). */
  readonly headers: { readonly 'webhook-delivery'?: string };
  readonly duration_ms: number;
  readonly error: DeliveryError | null;
  /** A human-readable reason (never the body sent). */
  readonly message?: string;
  /** The address connected to, when one was. */
  readonly address?: string;
  /** The answer's body, when `keepBody` was asked and it came whole. */
  readonly body?: string;
}

/** The resolved address, handed to the socket instead of a fresh lookup (the pin). */
export function pinnedLookup(address: string): LookupFunction {
  const family = address.includes(':') ? 6 : 4;
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

export async function deliverSafely(request: DeliveryRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = request.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? MAX_RESPONSE_BYTES;

  let url: URL;
  let address: string;
  try {
    url = parseWebhookUrl(request.url, request.policy);
    let addresses: string[];
    try {
      addresses = await request.resolver.resolve(hostOf(url));
    } catch (error) {
      return { success: false, status: null, headers: {}, duration_ms: elapsed(), error: 'dns_error', message: (error as Error).message };
    }
    checkResolvedAddresses(url, addresses, request.policy);
    address = addresses[0] as string;
  } catch (error) {
    if (error instanceof AppError)
      return { success: false, status: null, headers: {}, duration_ms: elapsed(), error: 'refused_address', message: error.message };
    throw error;
  }

  return new Promise<DeliveryResult>((resolve) => {
    let settled = false;
    // The status, once the receiver's headers came (a body that then hangs keeps it in the report).
    let answered: number | null = null;
    const finish = (result: Omit<DeliveryResult, 'duration_ms' | 'address'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...result, duration_ms: elapsed(), address });
    };
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(
      {
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'recovery-service-webhooks/1',
          ...request.headers,
          'content-length': Buffer.byteLength(request.body),
        },
        lookup: pinnedLookup(address),
        agent: false,
        ...(url.protocol === 'https:' ? { servername: hostOf(url) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        answered = status;
        const disable = res.headers['webhook-delivery'];
        const headers = typeof disable === 'string' ? { 'webhook-delivery': disable } : {};
        let received = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (request.keepBody === true && received <= maxBytes) chunks.push(chunk);
          if (received > maxBytes) finish({ success: false, status, headers, error: 'response_too_large', message: `response cut at ${maxBytes} bytes` });
        });
        res.on('end', () => {
          if (status >= 200 && status < 300)
            finish({ success: true, status, headers, error: null, ...(request.keepBody === true ? { body: Buffer.concat(chunks).toString('utf8') } : {}) });
          else if (status >= 300 && status < 400) finish({ success: false, status, headers, error: 'redirect', message: 'redirects are not followed' });
          else finish({ success: false, status, headers, error: 'http_status' });
        });
        res.on('error', (error) => finish({ success: false, status, headers, error: 'connection_error', message: error.message }));
      },
    );
    const timer = setTimeout(
      () => finish({ success: false, status: answered, headers: {}, error: 'timeout', message: `no complete answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    req.on('error', (error) => finish({ success: false, status: null, headers: {}, error: 'connection_error', message: error.message }));
    req.end(request.body);
  });
}
