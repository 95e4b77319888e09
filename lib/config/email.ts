import type { StageName } from './stages';

/** The sender address of every email of a stage when the `emailFrom` context names none; its domain is the service's SES sending domain. */
export const defaultEmailFrom = (stage: StageName): string => `no-reply@${stage}.recovery.example.com`;

/** The domain of a sender address: the SES domain identity it sends from (SENDING_DOMAIN). */
export const domainOfAddress = (address: string): string => address.slice(address.lastIndexOf('@') + 1);
