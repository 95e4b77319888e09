import { apiGroup } from '#api/groups';
import { actionsOfRole, roleLogicalIdOf, synthService, apiGroupFunctions } from '#test/infra/synth-service';

describe('secrets at rest: the KMS secrets key (DataStack SecretsKey)', () => {
  it('creates one customer-managed key with rotation in the data stack', () => {
    // Prepare
    const { service, template } = synthService();
    // Act
    const keys = Object.entries(template(service.data).findResources('AWS::KMS::Key')).filter(([logicalId]) => logicalId.startsWith('SecretsKey'));
    // Assess
    expect(keys).toHaveLength(1);
    expect(keys[0]?.[1].Properties.EnableKeyRotation).toBe(true);
  });

  it('lets exactly the groups marked `secrets` encrypt and decrypt, with the kms driver and the key named', () => {
    // Prepare
    const groups = apiGroupFunctions();
    // Act
    const users = groups.filter((entry) => actionsOfRole(entry.template, roleLogicalIdOf(entry.fn)).some((action) => action === 'kms:Decrypt'));
    // Assess
    expect(users.map((entry) => entry.group).sort()).toEqual(
      groups
        .filter((entry) => apiGroup(entry.group).secrets === true)
        .map((entry) => entry.group)
        .sort(),
    );
    expect(users.map((entry) => entry.group)).toEqual(expect.arrayContaining(['webhook-endpoints', 'crm']));
    for (const entry of users) {
      expect(entry.variables).toMatchObject({ SECRET_BOX_DRIVER: 'kms', SECRETS_KMS_KEY_ID: expect.anything() });
      expect(actionsOfRole(entry.template, roleLogicalIdOf(entry.fn))).toEqual(expect.arrayContaining(['kms:Encrypt', 'kms:Decrypt']));
    }
  });

  it('never passes WEBHOOK_ALLOW_LOOPBACK to any function', () => {
    for (const entry of apiGroupFunctions()) expect(entry.variables.WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
  });
});
