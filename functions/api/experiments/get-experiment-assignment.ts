import { listExperiments } from '#data/experiment-repository';
import { assignCustomer } from '#data/experiment-repository';
import { customerInPath } from '#api/customers/customer-lookup';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getExperimentAssignmentSchemas } from './schemas';

/**
 * GET /api/v1/experiments/assign/{customer_id}: the customer's variant in each running experiment
 * (recorded once: the exposure counted in the results) and the control in each stopped one
 * (frozen). The customer by our `cust_…` id or the provider's; another merchant's: 404.
 */
export const getExperimentAssignment = defineOperation(
  { auth: 'api_key', schemas: getExperimentAssignmentSchemas },
  async ({ params, principal, requestId }) => {
    const merchantId = principal.merchantId;
    const customer = await customerInPath(merchantId, params.customer_id);
    const now = new Date();
    const experiments = (await listExperiments(merchantId)).filter((e) => e.status !== 'promoted');
    const assignments = [];
    for (const experiment of experiments) {
      const variant = await assignCustomer(experiment, customer.id, now);
      assignments.push({
        experiment_id: experiment.id,
        kind: experiment.kind,
        status: experiment.status,
        variant: variant.key,
        is_control: variant.key === experiment.variants[0]?.key,
        setting: { ...variant.setting },
        frozen: experiment.status === 'stopped',
      });
    }
    return { body: envelope({ customer_id: customer.id, assignments }, requestId, merchantId) };
  },
);
