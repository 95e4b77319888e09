#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { parseStage } from '#lib/config/stages';
import { addComplianceChecks, createRecoveryService } from '#lib/stacks/recovery-service';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

createRecoveryService(app, {
  stage,
  // Without credentials the CLI sets neither, and the stacks stay environment-agnostic.
  ...(account && region ? { env: { account, region } } : {}),
});
addComplianceChecks(app);
