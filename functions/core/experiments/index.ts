/**
 * Experiments (DESIGN §2c): deterministic hashed assignment, the statistics of two arms, and
 * email A/B tests. Pure: no AWS. The repository is functions/data/ab-test-repository.ts.
 */
export * from './ab-test';
export * from './assign';
export * from './decision';
export * from './promotion';
export * from './stats';
