/**
 * The API groups: one Lambda each, serving its own rows (`functions/api/<group>/routes.ts`).
 * Everything the infrastructure needs to know about a group that its rows do not say is here,
 * typed, once: the CDK REST APIs build each function from it, and `routes.ts` checks it against
 * the rows when the table loads. Pure data.
 */
import type { QueueName } from '#contracts/queues';
import type { ApiName } from './route-types';

export interface ApiGroup {
  /** The REST API whose host serves the group's rows; `all` for a row on every host (`/health`). */
  readonly api: ApiName | 'all';
  /**
   * `read`: read-only table access (plus its keys' rate-limit windows), for groups whose rows are
   * all GETs; `write` otherwise. Checked against the rows.
   */
  readonly table: 'read' | 'write';
  /** @default 512 */
  readonly memoryMb?: number;
  /** @default 10 */
  readonly timeoutSeconds?: number;
  /** The only queues the group may send to (least privilege: grant and URL variable). @default none */
  readonly sendsTo?: readonly QueueName[];
  /** Calls the AI model (Bedrock on AWS, with permission on that one model). @default false */
  readonly ai?: boolean;
  /**
   * Seals and opens secrets at rest (functions/adapters/secret-box.ts: webhook signing secrets,
   * CRM tokens): on AWS, Encrypt/Decrypt on the data stack's secrets key, named in
   * SECRETS_KMS_KEY_ID. @default false
   */
  readonly secrets?: boolean;
  /**
   * Calls the CRMs' APIs as their OAuth apps (functions/adapters/crm): on AWS, the apps' origins,
   * client ids and redirect URIs (lib/config/crm-apps.ts), and read access to the client secrets
   * and the OAuth state key, named in CRM_*_ARN variables. @default false
   */
  readonly crmApps?: boolean;
  /**
   * Uses the vector store (functions/services/vectors.ts: similar recoveries, embedding, erasure):
   * on AWS, the S3 Vectors index named in S3_VECTORS_BUCKET and S3_VECTORS_INDEX, with the
   * adapter's actions on that index only. @default false
   */
  readonly vectors?: boolean;
  /**
   * Stores and reads data export files through the exports port (functions/adapters/exports): on
   * AWS, the export bucket named in EXPORTS_BUCKET, with PutObject and GetObject under `exports/`
   * only. @default false
   */
  readonly exports?: boolean;
  /**
   * Manages merchants' SES domain identities (functions/adapters/email-identity): on AWS,
   * EMAIL_IDENTITY_DRIVER=ses, SENDING_DOMAIN, and the identity actions on `identity/*`. @default false
   */
  readonly emailIdentities?: boolean;
  /**
   * Calls the custom-hostname ports (functions/adapters/cdn): `manage` (ACM certificates and
   * CloudFront distribution tenants) or `purge` (CloudFront invalidations), with exactly those
   * actions granted on AWS (lib/config/custom-hostnames.ts). @default none
   */
  readonly customHostnames?: 'manage' | 'purge';
}

export const apiGroups = {
  // Answers from memory; a small, fast function keeps health checks cheap on all three hosts.
  health: { api: 'all', table: 'read', memoryMb: 128, timeoutSeconds: 3 },
  status: { api: 'merchant', table: 'read' },
  openapi: { api: 'merchant', table: 'read' },
  // Model calls are slow; 28 s stays under API Gateway's 29 s integration limit.
  // Generation asks a model for text, bounded by AI_TIMEOUT_MS (20 s) inside the 28 s timeout.
  ai: { api: 'merchant', table: 'write', memoryMb: 1024, timeoutSeconds: 28, ai: true },
  payments: { api: 'merchant', table: 'write' },
  // Erasure deletes the customer's vectors.
  customers: { api: 'merchant', table: 'write', vectors: true },
  // Dunning messages and the resulting merchant webhook events.
  recoveries: { api: 'merchant', table: 'write', sendsTo: ['notifications', 'outbound-deliveries'] },
  campaigns: { api: 'merchant', table: 'write' },
  subscriptions: { api: 'merchant', table: 'read' },
  analytics: { api: 'merchant', table: 'write' },
  'decline-codes': { api: 'merchant', table: 'read' },
  // "Send a test event" goes through the normal signed delivery path.
  'webhook-endpoints': { api: 'merchant', table: 'write', sendsTo: ['outbound-deliveries'], secrets: true },
  settings: { api: 'merchant', table: 'write' },
  email: { api: 'merchant', table: 'write' },
  experiments: { api: 'merchant', table: 'write' },
  // Neighbour evidence: similar past recoveries from the vector store.
  suggestions: { api: 'merchant', table: 'write', vectors: true },
  // Win-back offers go out through the notifications consumer.
  'win-back': { api: 'merchant', table: 'write', sendsTo: ['notifications'] },
  'cancel-flows': { api: 'merchant', table: 'write' },
  // The enhanced tier asks a model for one short JSON answer.
  scoring: { api: 'merchant', table: 'write', ai: true },
  vectors: { api: 'merchant', table: 'write', vectors: true },
  integrations: { api: 'merchant', table: 'write' },
  ingest: { api: 'merchant', table: 'write', sendsTo: ['notifications', 'outbound-deliveries'] },
  crm: { api: 'merchant', table: 'write', secrets: true, crmApps: true },
  automation: { api: 'merchant', table: 'write' },
  // Stored provider payloads and the export files (upload and download).
  internal: { api: 'merchant', table: 'write', exports: true },
  'delivery-callbacks': { api: 'webhook', table: 'write' },
  'cancel-sessions': { api: 'edge', table: 'write' },
  // Opens the merchant's sealed widget secret to verify init signatures.
  widget: { api: 'edge', table: 'write', secrets: true },
  'custom-hostname': { api: 'edge', table: 'write', customHostnames: 'manage' },
  'email-domain': { api: 'edge', table: 'write', emailIdentities: true },
  // Cache purges (branding, custom hostnames) through the CDN port.
  'edge-internal': { api: 'edge', table: 'write', customHostnames: 'purge' },
  // Seals the upstream's WebSocket token on each one-time ticket.
  'session-proxy': { api: 'edge', table: 'write', secrets: true },
  // Public one-click unsubscribe (RFC 8058) from every message's link and List-Unsubscribe header.
  unsubscribe: { api: 'edge', table: 'write' },
  // Answers the provider fast and leaves normalising to the inbound consumer (DESIGN §2).
  'provider-webhooks': { api: 'webhook', table: 'write', sendsTo: ['inbound-webhooks'] },
} as const satisfies Readonly<Record<string, ApiGroup>>;

export type GroupName = keyof typeof apiGroups;

/** The registry entry of a group; throws for a name that is not one. */
export function apiGroup(name: string): ApiGroup {
  const group: ApiGroup | undefined = (apiGroups as Readonly<Record<string, ApiGroup>>)[name];
  if (group === undefined) throw new Error(`"${name}" is not an API group (functions/api/groups.ts)`);
  return group;
}
