import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, dynamo } from '#data/client';
import { settingsKeys } from '#data/keys';
import {
  QUIET_HOURS_CACHE_MS,
  clearQuietHoursCache,
  getQuietHours,
  putQuietHours,
  putRecoveryGoal,
  readQuietHours,
  readRecoveryGoal,
} from '#data/settings-repository';

const TableName = process.env.TABLE_NAME as string;

afterAll(() => dynamo.destroy());

let sequence = 0;
const newMerchantId = (): string => `merch_settings${(sequence += 1)}_${Math.random().toString(36).slice(2, 8)}`;

describe('quiet hours', () => {
  it('reads the disabled default 22 → 7 UTC before any are set, and stores nothing for it', async () => {
    // Prepare
    const merchantId = newMerchantId();
    // Act
    const record = await readQuietHours(merchantId);
    // Assess
    expect(record).toEqual({ start_hour: 22, end_hour: 7, timezone: 'UTC', enabled: false, updated_at: null });
    expect(await getQuietHours(merchantId)).toEqual({ startHour: 22, endHour: 7, timezone: 'UTC', enabled: false });
    expect((await documentClient.send(new GetCommand({ TableName, Key: settingsKeys.quietHours(merchantId) }))).Item).toBeUndefined();
  });

  it('stores quiet hours, replaces them, and keeps when they were first set', async () => {
    // Prepare
    const merchantId = newMerchantId();
    const first = await putQuietHours(merchantId, { startHour: 21, endHour: 8, timezone: 'Asia/Kolkata', enabled: true }, new Date('2026-01-01T00:00:00Z'));
    // Act
    const second = await putQuietHours(merchantId, { startHour: 23, endHour: 6, timezone: 'Europe/Berlin', enabled: false }, new Date('2026-02-01T00:00:00Z'));
    // Assess
    expect(first).toEqual({ start_hour: 21, end_hour: 8, timezone: 'Asia/Kolkata', enabled: true, updated_at: '2026-01-01T00:00:00.000Z' });
    expect(second).toEqual({ start_hour: 23, end_hour: 6, timezone: 'Europe/Berlin', enabled: false, updated_at: '2026-02-01T00:00:00.000Z' });
    expect(await readQuietHours(merchantId)).toEqual(second);
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: settingsKeys.quietHours(merchantId) }));
    expect(Item).toMatchObject({ entity: 'settings', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-02-01T00:00:00.000Z' });
  });

  it('keeps each merchant its own quiet hours', async () => {
    // Prepare
    const one = newMerchantId();
    const other = newMerchantId();
    await putQuietHours(one, { startHour: 1, endHour: 5, timezone: 'UTC', enabled: true });
    // Act and assess
    expect((await readQuietHours(other)).enabled).toBe(false);
    expect((await readQuietHours(one)).start_hour).toBe(1);
  });

  it('serves getQuietHours from its cache until it expires, and at once after a put in this process', async () => {
    // Prepare
    clearQuietHoursCache();
    const merchantId = newMerchantId();
    const start = Date.now();
    await putQuietHours(merchantId, { startHour: 22, endHour: 7, timezone: 'America/New_York', enabled: true });
    expect(await getQuietHours(merchantId, start)).toMatchObject({ timezone: 'America/New_York', enabled: true });
    // Act: another process (another Lambda) changes them behind this one's cache.
    await documentClient.send(
      new UpdateCommand({
        TableName,
        Key: settingsKeys.quietHours(merchantId),
        UpdateExpression: 'SET enabled = :off',
        ExpressionAttributeValues: { ':off': false },
      }),
    );
    const cached = await getQuietHours(merchantId, start + 1000);
    const expired = await getQuietHours(merchantId, start + QUIET_HOURS_CACHE_MS + 1000);
    await putQuietHours(merchantId, { startHour: 20, endHour: 6, timezone: 'America/Chicago', enabled: true });
    const afterPut = await getQuietHours(merchantId, Date.now());
    // Assess
    expect(cached.enabled).toBe(true);
    expect(expired.enabled).toBe(false);
    expect(afterPut).toEqual({ startHour: 20, endHour: 6, timezone: 'America/Chicago', enabled: true });
  });
});

describe('recovery goal', () => {
  it('reads no target over a monthly period before one is set', async () => {
    // Act and assess
    expect(await readRecoveryGoal(newMerchantId())).toEqual({ target_rate: null, period: 'monthly', updated_at: null });
  });

  it('stores the target and period, and keeps the period when a later set names none', async () => {
    // Prepare
    const merchantId = newMerchantId();
    const first = await putRecoveryGoal(merchantId, { targetRate: 0.4, period: 'quarterly' }, new Date('2026-03-01T00:00:00Z'));
    // Act
    const second = await putRecoveryGoal(merchantId, { targetRate: 0.55 }, new Date('2026-03-02T00:00:00Z'));
    // Assess
    expect(first).toEqual({ target_rate: 0.4, period: 'quarterly', updated_at: '2026-03-01T00:00:00.000Z' });
    expect(second).toEqual({ target_rate: 0.55, period: 'quarterly', updated_at: '2026-03-02T00:00:00.000Z' });
    expect(await readRecoveryGoal(merchantId)).toEqual(second);
  });

  it('makes a first goal without a period monthly', async () => {
    // Prepare
    const merchantId = newMerchantId();
    // Act
    const goal = await putRecoveryGoal(merchantId, { targetRate: 0 });
    // Assess
    expect(goal).toMatchObject({ target_rate: 0, period: 'monthly' });
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: settingsKeys.recoveryGoal(merchantId) }));
    expect(Item).toMatchObject({ entity: 'settings', target_rate: 0, period: 'monthly' });
  });
});
