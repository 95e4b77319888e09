import { randomBytes } from 'node:crypto';
import * as z from '#shared/zod';
import { encodeBase62 } from './api-keys';
import { ResourceNotFoundError, ValidationError } from './errors';
import type { Psp } from './providers';

/** Merchants (tenants), their API keys and their providers' webhook secrets: records, ports, errors. */
export const PLAN_TIERS = ['engine', 'recovery', 'command', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export interface RateLimits {
  readonly read_per_minute: number;
  readonly write_per_minute: number;
}

/** DESIGN §1: 100 requests/minute per key unless the merchant is configured otherwise. */
export const DEFAULT_RATE_LIMITS: RateLimits = { read_per_minute: 100, write_per_minute: 100 };

export interface Merchant {
  readonly id: string;
  readonly name: string;
  readonly plan_tier: PlanTier;
  readonly rate_limits: RateLimits;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A provider's webhook secret as reported back: the secret itself is never part of it. */
export interface ProviderSecretSummary {
  readonly merchant_id: string;
  readonly psp: Psp;
  readonly updated_at: string;
}

export interface ProviderSecret extends ProviderSecretSummary {
  readonly secret: string;
}

const ID_BYTES = 16;
export const newMerchantId = (): string => `merch_${encodeBase62(randomBytes(ID_BYTES))}`;

const buildNewMerchantSchema = () =>
  z.object({
    name: z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(200)),
    plan_tier: z._default(z.enum(PLAN_TIERS), 'engine'),
    rate_limits: z._default(
      z.object({
        read_per_minute: z.number().check(z.int(), z.positive()),
        write_per_minute: z.number().check(z.int(), z.positive()),
      }),
      DEFAULT_RATE_LIMITS,
    ),
  });
let newMerchantSchemaBuilt: ReturnType<typeof buildNewMerchantSchema> | undefined;
/**
 * A new merchant's fields (name, plan, rate limits), built on first use: only the operator CLI and
 * tests create merchants, while every function loads this module (cold start).
 */
export const newMerchantSchema = (): ReturnType<typeof buildNewMerchantSchema> => {
  newMerchantSchemaBuilt ??= buildNewMerchantSchema();
  return newMerchantSchemaBuilt;
};
export type NewMerchant = z.input<ReturnType<typeof buildNewMerchantSchema>>;

/** Ports: implemented over DynamoDB in functions/data/*-repository.ts. */
export interface MerchantRepository {
  createMerchant(input: NewMerchant): Promise<Merchant>;
  getMerchant(merchantId: string): Promise<Merchant | undefined>;
  listMerchants(): Promise<Merchant[]>;
}

export interface ProviderSecretRepository {
  setProviderSecret(merchantId: string, psp: string, secret: string): Promise<ProviderSecretSummary>;
  getProviderSecret(merchantId: string, psp: string): Promise<ProviderSecret | undefined>;
}

export class MerchantNotFoundError extends ResourceNotFoundError {
  constructor(merchantId: string, options?: ErrorOptions) {
    super(`No merchant with id "${merchantId}"`, { ...options, param: 'merchant_id' });
  }
}

export class InvalidMerchantError extends ValidationError {}

export class InvalidExpiryError extends ValidationError {}

export class UnknownPspError extends ValidationError {
  constructor(psp: string, options?: ErrorOptions) {
    super(`Unknown psp "${psp}"`, { ...options, param: 'psp' });
  }
}

export class InvalidProviderSecretError extends ValidationError {}
