import type { SignedResponse } from './signed-request';

/** Reading AWS's JSON protocols (`application/x-amz-json-1.0` and `1.1`: ACM, SQS), for adapters over `signed-request.ts`. */

/** A JSON answer's body as an object (`{}` when it is not one). */
export const jsonObjectOf = (body: string): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A JSON-protocol error answer's code and message: the code in `__type` (after `namespace#`) or
 * the `x-amzn-errortype` header; `service` names who answered when the body has no message.
 */
export const awsJsonFailure =
  (service: string) =>
  (response: SignedResponse): { code: string; message: string } => {
    const body = jsonObjectOf(response.body);
    const type = stringOf(body.__type) ?? response.headers.get('x-amzn-errortype')?.split(':')[0] ?? `HTTP${response.status}`;
    return {
      code: type.slice(type.lastIndexOf('#') + 1),
      message: stringOf(body.message) ?? stringOf(body.Message) ?? `${service} answered HTTP ${response.status}`,
    };
  };
