import { idBody } from './ids';

export interface CustomerRecord {
  readonly id: string;
  readonly merchant_id: string;
  /** Lowercased; unique per merchant. */
  readonly email: string;
  readonly name: string | null;
  readonly psp: string | null;
  readonly provider_customer_id: string | null;
  /** Failed payments recorded for the customer (A: total_payments counts what the service saw). */
  readonly total_payments: number;
  readonly failed_payments: number;
  readonly recovered_payments: number;
  /** Recoveries still open (pending, retrying or paused). */
  readonly open_payments: number;
  readonly total_failed_cents: number;
  readonly total_recovered_cents: number;
  /** Revenue seen from the customer: successful payments and recovered amounts. */
  readonly lifetime_value_cents: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: number;
}

export const customerIdFor = (body: string): string => `cust_${body}`;
export const customerBodyOf = (id: string): string | undefined => idBody(id, 'cust');

/** Emails are compared and stored lowercased and trimmed. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
