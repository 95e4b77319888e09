import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

// The client is loaded on first use: most functions that can read a secret (a signed cursor's key,
// the cron secret) do so on few requests, and the module's top level would otherwise run at
// every cold start.
let client:
  | Promise<{ client: SecretsManagerClient; GetSecretValueCommand: typeof import('@aws-sdk/client-secrets-manager').GetSecretValueCommand }>
  | undefined;

/** The string value of a Secrets Manager secret (callers cache it for the life of the function). */
export async function readSecret(secretId: string): Promise<string> {
  client ??= import('@aws-sdk/client-secrets-manager').then((sdk) => ({
    client: new sdk.SecretsManagerClient({}),
    GetSecretValueCommand: sdk.GetSecretValueCommand,
  }));
  const { client: secrets, GetSecretValueCommand } = await client;
  const { SecretString } = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (SecretString === undefined) throw new Error(`Secret ${secretId} has no string value`);
  return SecretString;
}
