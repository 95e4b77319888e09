import { apiGroup } from '#api/groups';
import { EXPORT_ACTIONS } from '#lib/constructs/export-bucket';
import { actionsOfRole, apiGroupFunctions, policyStatementsOfRole, roleLogicalIdOf, synthService } from '#test/infra/synth-service';

const usesS3Objects = (actions: readonly string[]): boolean => actions.some((action) => action.startsWith('s3:') && action.includes('Object'));

describe('the data export bucket', () => {
  it('creates one private bucket: SSE-S3, public access blocked, ACLs off, exports expiring after 7 days', () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const t = template(service.data);

    // Assess
    t.resourceCountIs('AWS::S3::Bucket', 1);
    t.hasResourceProperties('AWS::S3::Bucket', {
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    const rules = Object.values(t.findResources('AWS::S3::Bucket'))[0]?.Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Id: 'expire-exports', Prefix: 'exports/', ExpirationInDays: 7, Status: 'Enabled' }),
        expect.objectContaining({ Id: 'abort-incomplete-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
      ]),
    );
  });

  it('refuses every request that is not over TLS 1.2 or later', () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const statements = Object.values(template(service.data).findResources('AWS::S3::BucketPolicy')).flatMap(
      (policy) => policy.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>,
    );

    // Assess
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
      ]),
    );
  });

  it('retains the bucket outside dev, like the table', () => {
    // Prepare
    const prod = synthService('prod');
    const dev = synthService('dev');

    // Act
    const policyOf = (synthesised: ReturnType<typeof synthService>) =>
      Object.values(synthesised.template(synthesised.service.data).findResources('AWS::S3::Bucket'))[0]?.DeletionPolicy;

    // Assess
    expect(policyOf(prod)).toBe('Retain');
    expect(policyOf(dev)).toBe('Delete');
  });

  it('grants exactly the groups marked `exports` PutObject and GetObject under exports/ only, and points their port at the bucket', () => {
    // Prepare
    const groups = apiGroupFunctions();

    // Act
    const users = groups.filter((entry) => usesS3Objects(actionsOfRole(entry.template, roleLogicalIdOf(entry.fn))));

    // Assess
    expect(users.map((entry) => entry.group)).toEqual(['internal']);
    expect(groups.filter((entry) => apiGroup(entry.group).exports === true).map((entry) => entry.group)).toEqual(['internal']);
    for (const entry of users) {
      expect(entry.variables).toMatchObject({ EXPORTS_DRIVER: 's3', EXPORTS_BUCKET: expect.anything() });
      const statements = policyStatementsOfRole(entry.template, roleLogicalIdOf(entry.fn)).filter((statement) =>
        usesS3Objects([statement.Action as string | string[]].flat()),
      );
      expect(statements).toHaveLength(1);
      expect([statements[0]?.Action].flat().sort()).toEqual([...EXPORT_ACTIONS].sort());
      expect(JSON.stringify(statements[0]?.Resource)).toMatch(/recovery-dev-exports-.*\/exports\/\*/);
    }
    for (const entry of groups.filter((candidate) => !users.includes(candidate))) {
      expect(entry.variables.EXPORTS_DRIVER).toBeUndefined();
      expect(entry.variables.EXPORTS_BUCKET).toBeUndefined();
    }
  });
});
