import type { APIGatewayProxyEvent } from 'aws-lambda';
import { defineOperation } from '#api/operation';
import { getAnalyticsSummarySchemas } from './recovery-schemas';

/** The query string as the caller sent it (API Gateway passes it decoded), re-encoded; empty when there is none. */
function queryStringOf(event: APIGatewayProxyEvent): string {
  const multi = Object.entries(event.multiValueQueryStringParameters ?? {}).flatMap(([name, values]) =>
    (values ?? []).map((value): [string, string] => [name, value]),
  );
  const pairs = multi.length > 0 ? multi : Object.entries(event.queryStringParameters ?? {}).filter((pair): pair is [string, string] => pair[1] !== undefined);
  return pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&')}`;
}

/**
 * GET /api/v1/analytics/summary: A's 307 to /analytics/recovery with the same query (DESIGN §1:
 * A is canonical), so a client that follows redirects gets the recovery body B describes. The
 * query is validated first, so bad input is the same 400 as on the recovery route. `Location` is
 * a relative reference (`recovery?…`): it resolves beside the summary's own URL, whatever the
 * host, stage or base path in front of `/api/v1`.
 */
export const getAnalyticsSummary = defineOperation({ auth: 'api_key', schemas: getAnalyticsSummarySchemas }, async ({ event }) => {
  const location = `recovery${queryStringOf(event)}`;
  return { statusCode: 307, headers: { Location: location }, body: { location } };
});
