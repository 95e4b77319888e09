import type { CrmName } from '#core/crm';
import { crmAHubSpot } from './crm-a-hubspot';
import { crmBSalesforce } from './crm-b-salesforce';
import type { CrmAdapter } from './port';

export type { CrmAdapter } from './port';

/** The adapter of each CRM. */
export const crmAdapterFor = (crm: CrmName): CrmAdapter => (crm === 'crm_a' ? crmAHubSpot : crmBSalesforce);
