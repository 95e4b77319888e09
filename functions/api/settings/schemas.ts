import * as z from '#shared/zod';
import { DEFAULT_RECOVERY_GOAL_PERIOD, RECOVERY_GOAL_PERIODS } from '#core/recovery-goal';
import { ResponseMeta, TimeZoneName } from '#api/envelope-schemas';

const Timestamp = z.string().clone().register(z.globalRegistry, { format: 'date-time' });
const Hour = z.number().check(z.int(), z.gte(0), z.lte(23));
const Period = z.enum(RECOVERY_GOAL_PERIODS);

export const SetQuietHoursBody = z.object({
  start_hour: Hour.clone().register(z.globalRegistry, { description: 'The first quiet local hour, 0-23 (inclusive: 22 means from 22:00).' }),
  end_hour: Hour.clone().register(z.globalRegistry, {
    description:
      'The local hour the quiet period ends, 0-23 (exclusive: 7 means until 06:59). Lower than start_hour: the period crosses midnight. Equal to start_hour: no quiet period.',
  }),
  timezone: TimeZoneName.clone().register(z.globalRegistry, {
    description: 'IANA time zone name (`America/New_York`, `UTC`); offsets (`+02:00`) and abbreviations (`EST`) are refused.',
  }),
  enabled: z._default(z.boolean(), true).clone().register(z.globalRegistry, { description: 'Whether quiet hours apply; true unless given.' }),
});

export const QuietHoursData = z
  .object({
    start_hour: Hour,
    end_hour: Hour,
    timezone: z.string(),
    enabled: z.boolean(),
    updated_at: z
      .nullable(Timestamp)
      .clone()
      .register(z.globalRegistry, { description: 'When quiet hours were last set; null while they are the default (22-7 UTC, disabled).' }),
  })
  .clone()
  .register(z.globalRegistry, {
    id: 'QuietHours',
    description: 'Quiet hours: no retries or dunning messages are sent from start_hour:00 to end_hour:00 local time.',
  });

export const QuietHoursResponse = z.object({ data: QuietHoursData, meta: ResponseMeta });

export const SetRecoveryGoalBody = z.object({
  target_rate: z
    .number()
    .check(z.gte(0), z.lte(1))
    .clone()
    .register(z.globalRegistry, { description: 'The recovery rate to reach, 0.0-1.0, kept to six decimal places.' }),
  period: z
    .optional(Period)
    .clone()
    .register(z.globalRegistry, {
      description: `The period progress is measured over. Omitted: the goal keeps its period (${DEFAULT_RECOVERY_GOAL_PERIOD} for a new goal).`,
    }),
});

const Amounts = z
  .record(z.string(), z.number().check(z.int()))
  .clone()
  .register(z.globalRegistry, { description: 'Smallest currency unit, by lowercase currency.' });

export const RecoveryProgressData = z
  .object({
    period: Period,
    period_start: Timestamp.clone().register(z.globalRegistry, { description: 'Start of the current calendar period (UTC).' }),
    period_end: Timestamp.clone().register(z.globalRegistry, { description: 'End of the current calendar period (UTC, exclusive).' }),
    failed_payments: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'Payments that failed in the period.' }),
    recovered_payments: z
      .number()
      .check(z.int())
      .clone()
      .register(z.globalRegistry, { description: 'Of those, the ones recovered so far (whenever the recovery happened).' }),
    recovery_rate: z.number().clone().register(z.globalRegistry, { description: 'recovered_payments / failed_payments; 0 when none failed.' }),
    failed_amounts: Amounts,
    recovered_amounts: Amounts,
  })
  .clone()
  .register(z.globalRegistry, { id: 'RecoveryProgress' });

export const RecoveryGoalData = z
  .object({
    target_rate: z.nullable(z.number()).clone().register(z.globalRegistry, { description: 'null while no goal is set.' }),
    period: Period,
    progress: RecoveryProgressData,
    on_track: z.nullable(z.boolean()).clone().register(z.globalRegistry, { description: 'recovery_rate ≥ target_rate; null while no goal is set.' }),
    updated_at: z.nullable(Timestamp),
  })
  .clone()
  .register(z.globalRegistry, {
    id: 'RecoveryGoal',
    description: 'The recovery-rate goal and the progress of the current period, counted by the month each payment failed in.',
  });

export const RecoveryGoalResponse = z.object({ data: RecoveryGoalData, meta: ResponseMeta });

export const getQuietHoursSchemas = { responses: { 200: QuietHoursResponse } } as const;
export const setQuietHoursSchemas = { body: SetQuietHoursBody, responses: { 200: QuietHoursResponse } } as const;
export const getRecoveryGoalSchemas = { responses: { 200: RecoveryGoalResponse } } as const;
export const setRecoveryGoalSchemas = { body: SetRecoveryGoalBody, responses: { 200: RecoveryGoalResponse } } as const;
