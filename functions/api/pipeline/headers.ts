import type { APIGatewayProxyEvent } from 'aws-lambda';

/** A header by name, whatever case the client sent it in. */
export function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** The request's headers under lowercase names (API Gateway keeps the client's case). */
export function lowercasedHeaders(event: APIGatewayProxyEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (typeof value === 'string') out[name.toLowerCase()] = value;
  return out;
}
