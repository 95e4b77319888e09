import type { KMSClient } from '@aws-sdk/client-kms';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { InternalError } from '#core/errors';

/**
 * Secrets at rest (webhook signing secrets, CRM tokens): the port every caller uses to keep a
 * secret in the table only sealed. On AWS, KMS Encrypt/Decrypt under `SECRETS_KMS_KEY_ID` with an
 * encryption context; locally AES-256-GCM under `SECRET_BOX_KEY` (32 bytes, base64), the context
 * bound as additional authenticated data. `SECRET_BOX_DRIVER` picks one (`kms` unless set; the
 * local stack sets `local`), as `QUEUE_DRIVER` picks the queue transport.
 *
 * The context names what the secret belongs to (`{ merchant_id, purpose, id }`): a sealed value
 * copied onto another record does not open there. Plaintext is never logged, nor put in errors.
 *
 * @example
 * const sealed = await sealSecret('whsec_…', { merchant_id, purpose: 'webhook_endpoint', id });
 * const secret = await openSecret(sealed, { merchant_id, purpose: 'webhook_endpoint', id });
 */
export type SecretContext = Readonly<Record<string, string>>;

export interface SecretBox {
  seal(plaintext: string, context: SecretContext): Promise<string>;
  open(sealed: string, context: SecretContext): Promise<string>;
}

export type SecretBoxConfig =
  | { readonly driver: 'local'; readonly key: string | undefined }
  | { readonly driver: 'kms'; readonly keyId: string | undefined; readonly client?: Pick<KMSClient, 'send'> };

const LOCAL_PREFIX = 'v1.local.';
const KMS_PREFIX = 'v1.kms.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The context as one canonical string (keys sorted), the local driver's additional authenticated data. */
function canonicalContext(context: SecretContext): Buffer {
  const sorted = Object.keys(context)
    .sort()
    .map((key) => [key, context[key]]);
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}

function localKey(key: string | undefined): Buffer {
  if (key === undefined) throw new InternalError('SECRET_BOX_KEY is not set: the local secret box has no key');
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 32) throw new InternalError('SECRET_BOX_KEY must be 32 bytes, base64-encoded');
  return bytes;
}

function localBox(rawKey: string | undefined): SecretBox {
  return {
    async seal(plaintext, context) {
      const key = localKey(rawKey);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(canonicalContext(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return LOCAL_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    async open(sealed, context) {
      const key = localKey(rawKey);
      if (!sealed.startsWith(LOCAL_PREFIX)) throw new InternalError('Sealed secret is not of the local secret box');
      const bytes = Buffer.from(sealed.slice(LOCAL_PREFIX.length), 'base64');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new InternalError('Sealed secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(canonicalContext(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new InternalError('Sealed secret does not open (wrong key or context)', { cause: error });
      }
    },
  };
}

// The KMS SDK is loaded and its client made on first use, as queue-sender does for SQS.
let kmsSdk: Promise<typeof import('@aws-sdk/client-kms')> | undefined;
let defaultKmsClient: KMSClient | undefined;
async function kms(client: Pick<KMSClient, 'send'> | undefined) {
  kmsSdk ??= import('@aws-sdk/client-kms');
  const sdk = await kmsSdk;
  defaultKmsClient ??= client === undefined ? new sdk.KMSClient({}) : undefined;
  return { sdk, client: client ?? (defaultKmsClient as KMSClient) };
}

function kmsBox(keyId: string | undefined, client: Pick<KMSClient, 'send'> | undefined): SecretBox {
  return {
    async seal(plaintext, context) {
      if (keyId === undefined) throw new InternalError('SECRETS_KMS_KEY_ID is not set');
      const { sdk, client: kmsClient } = await kms(client);
      const out = await kmsClient.send(new sdk.EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { ...context } }));
      if (out.CiphertextBlob === undefined) throw new InternalError('KMS returned no ciphertext');
      return KMS_PREFIX + Buffer.from(out.CiphertextBlob).toString('base64');
    },
    async open(sealed, context) {
      if (!sealed.startsWith(KMS_PREFIX)) throw new InternalError('Sealed secret is not of the KMS secret box');
      const { sdk, client: kmsClient } = await kms(client);
      const out = await kmsClient.send(
        new sdk.DecryptCommand({
          CiphertextBlob: Buffer.from(sealed.slice(KMS_PREFIX.length), 'base64'),
          EncryptionContext: { ...context },
          ...(keyId === undefined ? {} : { KeyId: keyId }),
        }),
      );
      if (out.Plaintext === undefined) throw new InternalError('KMS returned no plaintext');
      return Buffer.from(out.Plaintext).toString('utf8');
    },
  };
}

export function createSecretBox(config: SecretBoxConfig): SecretBox {
  return config.driver === 'local' ? localBox(config.key) : kmsBox(config.keyId, config.client);
}

/** The box the environment configures, read at call time (the local stack sets its variables before first use). */
function configuredBox(): SecretBox {
  const driver = process.env.SECRET_BOX_DRIVER ?? 'kms';
  if (driver === 'local') return createSecretBox({ driver: 'local', key: process.env.SECRET_BOX_KEY });
  if (driver === 'kms') return createSecretBox({ driver: 'kms', keyId: process.env.SECRETS_KMS_KEY_ID });
  throw new InternalError('SECRET_BOX_DRIVER must be kms or local');
}

export function sealSecret(plaintext: string, context: SecretContext): Promise<string> {
  return configuredBox().seal(plaintext, context);
}

export function openSecret(sealed: string, context: SecretContext): Promise<string> {
  return configuredBox().open(sealed, context);
}
