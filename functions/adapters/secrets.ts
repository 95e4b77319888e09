import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const client = new SecretsManagerClient({});

/** The string value of a Secrets Manager secret (callers cache it for the life of the function). */
export async function readSecret(secretId: string): Promise<string> {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (SecretString === undefined) throw new Error(`Secret ${secretId} has no string value`);
  return SecretString;
}
