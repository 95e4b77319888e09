/**
 * Campaigns (issue 11): the record, triggers, filters, matching, validation, templates and the
 * state machine. Pure: no AWS. The repository is functions/data/campaign-repository.ts.
 */
export * from './failure';
export * from './filters';
export * from './lifecycle';
export * from './matching';
export * from './templates';
export * from './triggers';
export * from './types';
export * from './validation';
export * from './simulation';
