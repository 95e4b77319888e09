import { type DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createSecretBox, openSecret, sealSecret } from '#adapters/secret-box';

const KEY = randomBytes(32).toString('base64');
const CONTEXT = { merchant_id: 'mer_1', purpose: 'webhook_endpoint', id: 'we_1' };

/**
 * A stand-in for KMS (an AWS service, not our code): encrypts under a key of its own and refuses
 * a Decrypt whose encryption context differs from the Encrypt's, as KMS does.
 */
function fakeKms(): { client: Pick<KMSClient, 'send'>; calls: Array<{ name: string; input: Record<string, unknown> }> } {
  const kmsKey = randomBytes(32);
  const calls: Array<{ name: string; input: Record<string, unknown> }> = [];
  const send = async (command: EncryptCommand | DecryptCommand) => {
    if (command instanceof EncryptCommand) {
      calls.push({ name: 'Encrypt', input: { ...command.input } });
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', kmsKey, iv);
      cipher.setAAD(Buffer.from(JSON.stringify(command.input.EncryptionContext)));
      const body = Buffer.concat([cipher.update(command.input.Plaintext as Uint8Array), cipher.final()]);
      return { CiphertextBlob: Buffer.concat([iv, cipher.getAuthTag(), body]) };
    }
    calls.push({ name: 'Decrypt', input: { ...command.input } });
    const blob = Buffer.from(command.input.CiphertextBlob as Uint8Array);
    const decipher = createDecipheriv('aes-256-gcm', kmsKey, blob.subarray(0, 12));
    decipher.setAAD(Buffer.from(JSON.stringify(command.input.EncryptionContext)));
    decipher.setAuthTag(blob.subarray(12, 28));
    return { Plaintext: Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]) };
  };
  return { client: { send } as unknown as Pick<KMSClient, 'send'>, calls };
}

describe('secret box, local driver (AES-256-GCM)', () => {
  it('seals to a value that holds no plaintext and opens back under the same context', async () => {
    // Prepare
    const box = createSecretBox({ driver: 'local', key: KEY });

    // Act
    const sealed = await box.seal('whsec_c2VjcmV0LXZhbHVl', CONTEXT);
    const opened = await box.open(sealed, { purpose: 'webhook_endpoint', id: 'we_1', merchant_id: 'mer_1' });

    // Assess
    expect(sealed.startsWith('v1.local.')).toBe(true);
    expect(sealed).not.toContain('c2VjcmV0LXZhbHVl');
    expect(opened).toBe('whsec_c2VjcmV0LXZhbHVl');
  });

  it('seals the same plaintext differently each time (random nonce)', async () => {
    const box = createSecretBox({ driver: 'local', key: KEY });
    expect(await box.seal('x', CONTEXT)).not.toBe(await box.seal('x', CONTEXT));
  });

  it('refuses to open under another context, another key, or a tampered value, without echoing plaintext', async () => {
    // Prepare
    const box = createSecretBox({ driver: 'local', key: KEY });
    const sealed = await box.seal('top-secret-token', CONTEXT);
    const tampered = `${sealed.slice(0, -4)}${sealed.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;

    // Act
    const results = await Promise.allSettled([
      box.open(sealed, { ...CONTEXT, merchant_id: 'mer_2' }),
      createSecretBox({ driver: 'local', key: randomBytes(32).toString('base64') }).open(sealed, CONTEXT),
      box.open(tampered, CONTEXT),
    ]);

    // Assess
    for (const result of results) {
      expect(result.status).toBe('rejected');
      if (result.status === 'rejected') expect(String((result.reason as Error).message)).not.toContain('top-secret-token');
    }
  });

  it('fails clearly without a key or with a key of the wrong length', async () => {
    await expect(createSecretBox({ driver: 'local', key: undefined }).seal('x', CONTEXT)).rejects.toThrow('SECRET_BOX_KEY');
    await expect(createSecretBox({ driver: 'local', key: randomBytes(16).toString('base64') }).seal('x', CONTEXT)).rejects.toThrow('32 bytes');
  });

  it('sealSecret/openSecret use the driver and key the environment names', async () => {
    // Prepare
    const previous = { driver: process.env.SECRET_BOX_DRIVER, key: process.env.SECRET_BOX_KEY };
    process.env.SECRET_BOX_DRIVER = 'local';
    process.env.SECRET_BOX_KEY = KEY;
    try {
      // Act
      const sealed = await sealSecret('crm-token', CONTEXT);

      // Assess
      expect(await createSecretBox({ driver: 'local', key: KEY }).open(sealed, CONTEXT)).toBe('crm-token');
      expect(await openSecret(sealed, CONTEXT)).toBe('crm-token');
    } finally {
      for (const [name, value] of [
        ['SECRET_BOX_DRIVER', previous.driver],
        ['SECRET_BOX_KEY', previous.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe('secret box, KMS driver', () => {
  it('encrypts under the configured key id with the context as the encryption context, and decrypts with it', async () => {
    // Prepare
    const kms = fakeKms();
    const box = createSecretBox({ driver: 'kms', keyId: 'alias/recovery-secrets', client: kms.client });

    // Act
    const sealed = await box.seal('whsec_abc', CONTEXT);
    const opened = await box.open(sealed, CONTEXT);

    // Assess
    expect(sealed.startsWith('v1.kms.')).toBe(true);
    expect(opened).toBe('whsec_abc');
    expect(kms.calls.map((call) => call.name)).toEqual(['Encrypt', 'Decrypt']);
    expect(kms.calls[0]?.input).toMatchObject({ KeyId: 'alias/recovery-secrets', EncryptionContext: CONTEXT });
    expect(kms.calls[1]?.input).toMatchObject({ EncryptionContext: CONTEXT });
  });

  it('does not open under another context (KMS refuses it)', async () => {
    const kms = fakeKms();
    const box = createSecretBox({ driver: 'kms', keyId: 'k', client: kms.client });
    const sealed = await box.seal('whsec_abc', CONTEXT);
    await expect(box.open(sealed, { ...CONTEXT, id: 'we_2' })).rejects.toThrow();
  });

  it('refuses to seal without a key id, and refuses a value sealed by the local driver', async () => {
    const kms = fakeKms();
    await expect(createSecretBox({ driver: 'kms', keyId: undefined, client: kms.client }).seal('x', CONTEXT)).rejects.toThrow('SECRETS_KMS_KEY_ID');
    const local = await createSecretBox({ driver: 'local', key: KEY }).seal('x', CONTEXT);
    await expect(createSecretBox({ driver: 'kms', keyId: 'k', client: kms.client }).open(local, CONTEXT)).rejects.toThrow('not of the KMS');
    expect(kms.calls).toEqual([]);
  });
});
