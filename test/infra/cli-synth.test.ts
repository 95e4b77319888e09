import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

describe('cdk synth with the project CLI', () => {
  it('synthesises every stack offline with no AWS credentials or profile', () => {
    // Prepare: no AWS settings at all; bundle only the data stack (it has no functions), so the
    // CLI, the app, the nag validation and the cloud assembly are checked in seconds.
    // Nor the runtime's variables: synth must not load runtime modules that read them (the route
    // table and its schemas are pure contract modules).
    const runtimeVariables = new Set(['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'QUEUE_DRIVER', 'LOG_LEVEL']);
    const environment = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('CDK_') && !runtimeVariables.has(name)),
    );
    const output = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    // Act
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'aws-cdk', 'bin', 'cdk'), 'synth', '--exclusively', 'Recovery-dev-Data', '--quiet', '--output', output],
      {
        cwd: ROOT,
        env: { ...environment, CDK_DISABLE_VERSION_CHECK: 'true', AWS_EC2_METADATA_DISABLED: 'true' },
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    // Assess
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({ status: 0, stderr: '' });
    const templates = readdirSync(output)
      .filter((name) => name.endsWith('.template.json'))
      .sort();
    expect(templates).toEqual(
      ['Recovery-dev-Data', 'Recovery-dev-EdgeApi', 'Recovery-dev-Jobs', 'Recovery-dev-MerchantApi', 'Recovery-dev-WebhookApi'].map(
        (name) => `${name}.template.json`,
      ),
    );
  }, 300_000);
});
