import type { CfnElement } from 'aws-cdk-lib';
import { apiGroup } from '#api/groups';
import { EMBED_SOURCE_ENTITIES } from '#consumers/embed-recoveries';
import { VECTOR_DIMENSION } from '#core/vectors/features';
import { EMBED_RECOVERIES_SOURCE } from '#lib/constructs/embed-recoveries-consumer';
import { VECTOR_ACTIONS } from '#lib/constructs/vector-index';
import {
  actionsOfRole,
  apiGroupFunctions,
  eventSourceMappingsOf,
  filterPatternsOf,
  logicalIdOf,
  policyStatementsOfRole,
  roleLogicalIdOf,
  streamMappingProperties,
  synthService,
} from '#test/infra/synth-service';

const usesVectors = (actions: readonly string[]): boolean => actions.some((action) => action.startsWith('s3vectors:'));

describe('the similar-recoveries vector index (Amazon S3 Vectors)', () => {
  it('creates one vector bucket and one index: the feature dimension, cosine, float32, merchant_id filterable', () => {
    // Prepare
    const { service, template } = synthService('dev');

    // Act
    const t = template(service.data);

    // Assess
    t.resourceCountIs('AWS::S3Vectors::VectorBucket', 1);
    t.resourceCountIs('AWS::S3Vectors::Index', 1);
    t.hasResourceProperties('AWS::S3Vectors::VectorBucket', { VectorBucketName: 'recovery-dev-vectors' });
    const index = Object.values(t.findResources('AWS::S3Vectors::Index'))[0]?.Properties;
    expect(index).toMatchObject({
      VectorBucketName: 'recovery-dev-vectors',
      IndexName: 'recoveries',
      Dimension: VECTOR_DIMENSION,
      DistanceMetric: 'cosine',
      DataType: 'float32',
    });
    // Every key a query filters on stays filterable (S3 Vectors indexes every key not declared here).
    const nonFilterable: string[] = index.MetadataConfiguration.NonFilterableMetadataKeys;
    for (const key of ['merchant_id', 'customer_id', 'outcome', 'strategy']) expect(nonFilterable).not.toContain(key);
    expect(nonFilterable.sort()).toEqual(['decline_code', 'id']);
  });

  it('retains the bucket and the index outside dev, like the table, and deletes them in dev', () => {
    // Prepare
    const prod = synthService('prod');
    const dev = synthService('dev');

    // Act
    const policies = (synthesised: ReturnType<typeof synthService>) =>
      ['AWS::S3Vectors::VectorBucket', 'AWS::S3Vectors::Index'].map(
        (type) => Object.values(synthesised.template(synthesised.service.data).findResources(type))[0]?.DeletionPolicy,
      );

    // Assess
    expect(policies(prod)).toEqual(['Retain', 'Retain']);
    expect(policies(dev)).toEqual(['Delete', 'Delete']);
  });

  it('gives exactly the groups marked `vectors` the store: s3vectors variables and the adapter actions on the index only', () => {
    // Prepare
    const groups = apiGroupFunctions();

    // Act
    const users = groups.filter((entry) => usesVectors(actionsOfRole(entry.template, roleLogicalIdOf(entry.fn))));

    // Assess
    expect(users.map((entry) => entry.group).sort()).toEqual(['customers', 'suggestions', 'vectors']);
    expect(
      groups
        .filter((entry) => apiGroup(entry.group).vectors === true)
        .map((entry) => entry.group)
        .sort(),
    ).toEqual(['customers', 'suggestions', 'vectors']);
    for (const entry of users) {
      expect(entry.variables).toMatchObject({ VECTOR_STORE: 's3vectors', S3_VECTORS_BUCKET: 'recovery-dev-vectors', S3_VECTORS_INDEX: 'recoveries' });
      const statements = policyStatementsOfRole(entry.template, roleLogicalIdOf(entry.fn)).filter((statement) =>
        usesVectors([statement.Action as string | string[]].flat()),
      );
      expect(statements).toHaveLength(1);
      expect([statements[0]?.Action].flat().sort()).toEqual([...VECTOR_ACTIONS].sort());
      expect(JSON.stringify(statements[0]?.Resource)).toMatch(/VectorsIndex.*IndexArn/);
    }
    for (const entry of groups.filter((candidate) => !users.includes(candidate))) {
      expect(entry.variables.VECTOR_STORE).toBeUndefined();
      expect(entry.variables.S3_VECTORS_BUCKET).toBeUndefined();
    }
  });

  it('embeds recoveries in their own Lambda: its mapping on payment records only, partial failures, bisect, bounded retries and a DLQ', () => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.embedRecoveries!;

    // Act
    const t = template(service.jobs);
    const mappings = eventSourceMappingsOf(t, consumer.fn);

    // Assess
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({
      ...streamMappingProperties(EMBED_RECOVERIES_SOURCE, consumer.deadLetterQueue),
      MaximumBatchingWindowInSeconds: EMBED_RECOVERIES_SOURCE.maxBatchingWindowSeconds,
    });
    const patterns = filterPatternsOf(mappings[0]);
    expect(patterns).toEqual([
      { dynamodb: { NewImage: { entity: { S: [...EMBED_SOURCE_ENTITIES] } } } },
      { dynamodb: { OldImage: { entity: { S: [...EMBED_SOURCE_ENTITIES] } } } },
    ]);
    const alarms = Object.values(t.findResources('AWS::CloudWatch::Alarm')).filter((alarm) =>
      JSON.stringify(alarm.Properties.Dimensions).includes(logicalIdOf(consumer.deadLetterQueue.queue.node.defaultChild as CfnElement)),
    );
    expect(alarms).toHaveLength(1);
  });

  it('lets the embedding consumer use the index and read its stream, and nothing else: no table item access, no queue', () => {
    // Prepare
    const { service, template } = synthService();
    const consumer = service.jobs.embedRecoveries!;

    // Act
    const t = template(service.jobs);
    const actions = actionsOfRole(t, roleLogicalIdOf(consumer.fn));
    const variables = t.findResources('AWS::Lambda::Function')[logicalIdOf(consumer.fn)]?.Properties.Environment.Variables;

    // Assess
    const streamReads = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'];
    expect(actions.filter((action) => action.startsWith('dynamodb:') && !streamReads.includes(action))).toEqual([]);
    expect(actions.filter((action) => action.startsWith('s3vectors:')).sort()).toEqual([...VECTOR_ACTIONS].sort());
    expect(actions.filter((action) => action.startsWith('sqs:') && action !== 'sqs:SendMessage' && !action.startsWith('sqs:Get'))).toEqual([]);
    expect(variables).toMatchObject({ VECTOR_STORE: 's3vectors', S3_VECTORS_BUCKET: 'recovery-dev-vectors', S3_VECTORS_INDEX: 'recoveries' });
  });

  it('gives no other job or consumer the vector store', () => {
    // Prepare
    const { service, template } = synthService();
    const t = template(service.jobs);
    const others = [...service.jobs.consumers.values()]
      .map((c) => c.fn)
      .concat(
        [service.jobs.tableStream.fn, service.jobs.outboundDispatch.fn],
        [...service.jobs.jobs.values()].map((job) => job.fn),
      );

    // Act
    const users = others.filter((fn) => usesVectors(actionsOfRole(t, roleLogicalIdOf(fn))));

    // Assess
    expect(users).toEqual([]);
  });
});
