import type { CrmContact, CrmName, CrmTokens } from '#core/crm';

/**
 * The CRM port: what the service needs of a CRM. Adapters speak the CRM's own HTTPS API with
 * `fetch`, origins and OAuth client from configuration (functions/adapters/crm/http.ts). Every
 * failure is a CrmError (functions/core/crm.ts) whose message carries no token and no contact.
 */
export interface CrmAdapter {
  readonly crm: CrmName;
  /**
   * The CRM's consent page for an installation: the configured client and redirect URI, the
   * scopes and `state` (an `unavailable` CrmError when the client or redirect URI is unset).
   */
  authorizeUrl(state: string): string;
  /** Exchanges an installation's authorization code for tokens (OAuth 2.0 authorization code grant). */
  exchangeCode(code: string, now: Date): Promise<CrmTokens>;
  /** New tokens from the refresh token (`unauthorized` when there is none or it is refused). */
  refresh(tokens: CrmTokens, now: Date): Promise<CrmTokens>;
  /** Creates or updates one CRM contact per customer, keyed so a second push updates the same contact; answers how many the CRM accepted. */
  upsertContacts(tokens: CrmTokens, contacts: readonly CrmContact[]): Promise<{ readonly upserted: number; readonly failed: number }>;
}
