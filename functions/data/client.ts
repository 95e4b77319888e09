import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';

/**
 * One client per process, created at module scope. Locally `DYNAMODB_ENDPOINT` points it at
 * DynamoDB Local (which accepts any credentials); on AWS it is unset and the SDK's defaults apply.
 */
function createClient(): DynamoDBClient {
  const endpoint = env.DYNAMODB_ENDPOINT;
  if (endpoint === undefined) return new DynamoDBClient({});
  return new DynamoDBClient({
    endpoint,
    region: env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

export const dynamo = createClient();

export const documentClient = DynamoDBDocumentClient.from(dynamo, {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});
