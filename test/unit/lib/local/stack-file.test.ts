import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLocalStackEnvironment } from '#lib/local/stack-file';

const NAMES = [
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'DEFAULT_PAYMENT_GATEWAY',
  'SMTP_URL',
  'EMAIL_DRIVER',
  'EDGE_PUBLIC_BASE_URL',
  'UNSUBSCRIBE_SIGNING_SECRET',
  'CRM_STATE_SIGNING_SECRET',
];

describe('useLocalStackEnvironment', () => {
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  const stackFile = (fields: Record<string, string>): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'stack-file-')), 'stack.json');
    writeFileSync(path, JSON.stringify(fields));
    return path;
  };
  const STACK = {
    api_url: 'http://127.0.0.1:3000/api/v1',
    dynamodb_endpoint: 'http://127.0.0.1:8000',
    table_name: 'recovery-local',
    default_payment_gateway: 'sandbox',
    smtp_url: 'smtp://127.0.0.1:1025',
    edge_url: 'http://127.0.0.1:3000',
    unsubscribe_signing_secret: 'k'.repeat(64),
    crm_state_signing_secret: 'c'.repeat(64),
  };

  beforeEach(() => {
    for (const name of NAMES) delete process.env[name];
  });

  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("points a script at the stack's table, gateway, mail catcher, edge origin, unsubscribe key and CRM state key", () => {
    // Act
    const isStack = useLocalStackEnvironment(stackFile(STACK));
    // Assess
    expect(isStack).toBe(true);
    expect(Object.fromEntries(NAMES.map((name) => [name, process.env[name]]))).toEqual({
      TABLE_NAME: 'recovery-local',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
      DEFAULT_PAYMENT_GATEWAY: 'sandbox',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      EMAIL_DRIVER: 'smtp',
      EDGE_PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
      UNSUBSCRIBE_SIGNING_SECRET: 'k'.repeat(64),
      CRM_STATE_SIGNING_SECRET: 'c'.repeat(64),
    });
  });

  it('keeps what the environment sets, and takes nothing but the table when the environment names another table', () => {
    // Prepare
    process.env.EMAIL_DRIVER = 'outbox';
    const path = stackFile(STACK);
    // Act
    const onStack = useLocalStackEnvironment(path);
    const emailDriver = process.env.EMAIL_DRIVER;
    for (const name of NAMES) delete process.env[name];
    process.env.TABLE_NAME = 'another-table';
    const elsewhere = useLocalStackEnvironment(path);
    // Assess
    expect(onStack).toBe(true);
    expect(emailDriver).toBe('outbox');
    expect(elsewhere).toBe(false);
    expect([process.env.SMTP_URL, process.env.UNSUBSCRIBE_SIGNING_SECRET, process.env.CRM_STATE_SIGNING_SECRET, process.env.DEFAULT_PAYMENT_GATEWAY]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
