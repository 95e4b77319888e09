import { meterBilling } from '#services/billing-metering';
import { checkCardExpiries } from '#services/card-expiry-checks';
import { notifyUpcomingCharges } from '#services/pre-dunning';
import { recheckPendingDomains, stepDomainWarmUp } from '#services/email-domains';
import { recheckCancelSaves } from '#services/recheck-cancel-saves';
import { cleanUpRetention } from '#services/retention-cleanup';
import { createJobHandler } from './run-job';

export const handler = createJobHandler('daily', {
  'card-expiry-checks': async (input) => ({ ...(await checkCardExpiries(input.now)) }),
  'pre-dunning-notifications': async (input) => ({ ...(await notifyUpcomingCharges(input.now)) }),
  'retention-cleanup': (input) => cleanUpRetention(input.now),
  'billing-metering': (input) => meterBilling(input.now),
  'cancel-save-recheck': (input) => recheckCancelSaves(input.now),
  'pending-domain-provisioning': (input) => recheckPendingDomains(input.now),
  'domain-warm-up': (input) => stepDomainWarmUp(input.now),
});
