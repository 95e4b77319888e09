import { dayOf } from '#core/analytics/period';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import {
  type CampaignSetting,
  type ExperimentKind,
  type ExperimentRecord,
  type ExperimentVariant,
  type NewExperiment,
  newExperiment,
  type VariantSetting,
} from '#core/experiments/experiment';
import { computeResults, type ExperimentResults } from '#core/experiments/results';
import { neighbourProbeKey, type SuggestionTarget } from '#core/experiments/neighbour-evidence';
import { resolveSuggestions } from '#core/experiments/neighbour-rules';
import { SUGGESTION_WINDOW_DAYS, type Suggestion, suggestionCandidates } from '#core/experiments/suggestions';
import type { VectorMatch } from '#core/vectors/store';
import { getCampaign } from '#data/campaign-repository';
import { experimentEndUpdate, experimentPut, getExperiment, listExperiments, readVariantCounts } from '#data/experiment-repository';
import { getRecoveryStrategy, type RecoveryStrategy, recoveryDefaultWrite } from '#data/recovery-strategy-repository';
import { readRollups } from '#data/rollup-queries';
import { listSuggestionDecisions, type SuggestionDecision, suggestionDecisionPut } from '#data/suggestion-repository';
import { transactOptimistically } from '#data/transact';
import { logger } from '#shared/logger';

/**
 * The experiments use cases (DESIGN §2c "Experiments"): start (CLI, applied suggestion), stop,
 * results, promote (the winner becomes the merchant's default, which the retry policy, campaign
 * enrollment, campaign steps and cancel sessions read), and suggestions from the merchant's
 * analytics and vector neighbours. Conversions: experiment-conversions.ts.
 */

/** The merchant's experiment, or 404 naming the path id (another merchant's included). */
export async function experimentOrNotFound(merchantId: string, id: string): Promise<ExperimentRecord> {
  const experiment = await getExperiment(merchantId, id);
  if (experiment === undefined) throw new ResourceNotFoundError(`No experiment ${id}.`, { param: 'id' });
  return experiment;
}

/** Refuses a second running experiment of one kind: two would fight over the same customers' setting. */
function refuseOverlap(running: readonly ExperimentRecord[], kind: ExperimentRecord['kind']): void {
  const same = running.find((experiment) => experiment.status === 'running' && experiment.kind === kind);
  if (same !== undefined) throw new StateConflictError(`Experiment ${same.id} already tests ${kind}: stop or promote it first.`);
}

/**
 * Refuses (422, `param` naming the variant) a campaign setting whose campaign is not one of the
 * merchant's (another merchant's, deleted, unknown): it could never enroll anyone. A draft or
 * paused campaign of theirs is accepted: it steers enrollment once it is active.
 */
async function refuseForeignCampaigns(
  merchantId: string,
  kind: ExperimentKind,
  settings: readonly VariantSetting[],
  param: (i: number) => string,
): Promise<void> {
  if (kind !== 'campaign') return;
  for (const [i, setting] of settings.entries()) {
    const id = (setting as CampaignSetting).campaign_id;
    if (id !== null && (await getCampaign(merchantId, id)) === undefined)
      throw new ValidationError(`${param(i)} ${id} is not one of the merchant's campaigns.`, { param: param(i) });
  }
}

/** Starts an experiment (operator CLI). 409 when one of the same kind runs; 422 for a campaign that is not the merchant's. */
export async function startExperiment(input: NewExperiment, now: Date = new Date()): Promise<ExperimentRecord> {
  const experiment = newExperiment(input, now);
  await refuseForeignCampaigns(
    input.merchantId,
    experiment.kind,
    experiment.variants.map((v) => v.setting),
    (i) => `variants[${i}].campaign_id`,
  );
  return transactOptimistically(async () => {
    refuseOverlap(await listExperiments(input.merchantId), experiment.kind);
    return { items: [experimentPut(experiment)], result: experiment };
  });
}

/** Stops a running experiment: assignment freezes, everyone gets the control. 409 unless running. */
export async function stopExperiment(merchantId: string, id: string, now: Date = new Date()): Promise<ExperimentRecord> {
  return transactOptimistically(async () => {
    const experiment = await experimentOrNotFound(merchantId, id);
    if (experiment.status !== 'running') throw new StateConflictError(`Experiment ${id} is ${experiment.status}: only a running experiment stops.`);
    return {
      items: [experimentEndUpdate(experiment, 'stopped', null, now)],
      result: { ...experiment, status: 'stopped' as const, stopped_at: now.toISOString() },
    };
  });
}

export async function experimentResults(experiment: ExperimentRecord): Promise<ExperimentResults> {
  return computeResults(experiment, await readVariantCounts(experiment));
}

export interface Promotion {
  readonly experiment: ExperimentRecord;
  readonly winner: ExperimentVariant;
  readonly forced: boolean;
  readonly results: ExperimentResults;
  readonly strategy: RecoveryStrategy;
}

/**
 * Promotes the winner: its setting becomes the merchant's default for the experiment's kind, and
 * the experiment ends `promoted`, in one transaction. 409 unless running, and until the results
 * name a winner (every variant at the minimum sample, no SRM, a decisive posterior), unless
 * `force`: then the decided winner, or else the variant with the highest observed rate (the
 * control on a tie).
 */
export async function promoteExperiment(merchantId: string, id: string, force: boolean, now: Date = new Date()): Promise<Promotion> {
  return transactOptimistically(async () => {
    const experiment = await experimentOrNotFound(merchantId, id);
    if (experiment.status !== 'running') throw new StateConflictError(`Experiment ${id} is ${experiment.status}: only a running experiment is promoted.`);
    const results = await experimentResults(experiment);
    if (results.winner === null && !force) {
      const why =
        results.reason === 'insufficient_sample'
          ? `every variant needs ${experiment.minimum_sample_per_variant} exposures first`
          : results.reason === 'srm'
            ? 'the exposures show a sample ratio mismatch (broken assignment)'
            : 'no variant wins yet';
      throw new StateConflictError(`Experiment ${id} has no winner: ${why}. Send force=true to promote the best observed variant anyway.`);
    }
    const best = results.variants.reduce((top, v) => ((v.rate ?? -1) > (top.rate ?? -1) ? v : top));
    const winnerKey = results.winner ?? best.key;
    const winner = experiment.variants.find((v) => v.key === winnerKey) as ExperimentVariant;
    const current = await getRecoveryStrategy(merchantId);
    const { update, strategy } = recoveryDefaultWrite(merchantId, current, experiment.kind, winner.setting, `experiment:${experiment.id}`, now);
    const promoted: ExperimentRecord = { ...experiment, status: 'promoted', winner: winner.key, promoted_at: now.toISOString() };
    return {
      items: [experimentEndUpdate(experiment, 'promoted', winner.key, now), update],
      result: { experiment: promoted, winner, forced: results.winner === null, results: { ...results, status: 'promoted' }, strategy },
    };
  });
}

/**
 * Vector neighbours (issue 15): the merchant's past payments nearest a typical payment of a
 * suggestion's target. The suggestions operations pass services/suggestion-neighbours.ts
 * vectorNeighbours (the vector store), list, apply and dismiss alike, so that an id the neighbours
 * propose is found again, and one they withhold is not.
 */
export type NeighbourSearch = (merchantId: string, target: SuggestionTarget) => Promise<readonly VectorMatch[]>;

/**
 * The suggestions the merchant's last SUGGESTION_WINDOW_DAYS of analytics and its vector
 * neighbours support (core/experiments/neighbour-rules.ts), less those already applied or
 * dismissed and those `wanted` leaves out. One vector query per distinct target at most (a code,
 * or a category), and none for a decided or unwanted candidate.
 */
async function openSuggestions(
  merchantId: string,
  now: Date,
  neighbours: NeighbourSearch,
  decided: ReadonlyMap<string, SuggestionDecision>,
  wanted: (id: string) => boolean,
): Promise<Suggestion[]> {
  const first = dayOf(new Date(now.getTime() - SUGGESTION_WINDOW_DAYS * 86_400_000));
  const rollups = await readRollups(merchantId, 'PAY', 'D', first, dayOf(now));
  const candidates = suggestionCandidates(rollups, (id) => !decided.has(id)).filter((candidate) => wanted(candidate.id));
  const probes = new Map(candidates.map((candidate) => [neighbourProbeKey(candidate), candidate]));
  const found = new Map(await Promise.all([...probes].map(async ([key, candidate]) => [key, await neighbours(merchantId, candidate)] as const)));
  const { suggestions, withheld } = resolveSuggestions(candidates, (candidate) => found.get(neighbourProbeKey(candidate)) ?? []);
  for (const { id, why } of withheld)
    logger.info('suggestion withheld: its vector neighbours contradict it', { merchant_id: merchantId, suggestion_id: id, why });
  return suggestions;
}

/** The suggestions offered to the merchant now (GET /suggestions/recovery). */
export async function currentSuggestions(merchantId: string, neighbours: NeighbourSearch, now: Date = new Date()): Promise<Suggestion[]> {
  return openSuggestions(merchantId, now, neighbours, await listSuggestionDecisions(merchantId), () => true);
}

/**
 * The suggestion to apply or dismiss, found as the list finds it (analytics and neighbours). 409
 * once decided, whatever the analytics or neighbours say since; 404 when not proposed now (another
 * merchant's id included, and one the neighbours withhold).
 */
async function suggestionOrNotFound(merchantId: string, id: string, now: Date, neighbours: NeighbourSearch): Promise<Suggestion> {
  const decisions = await listSuggestionDecisions(merchantId);
  const decided = decisions.get(id);
  if (decided !== undefined) throw new StateConflictError(`Suggestion ${id} was already ${decided.status}.`);
  const [suggestion] = await openSuggestions(merchantId, now, neighbours, decisions, (candidate) => candidate === id);
  if (suggestion !== undefined) return suggestion;
  throw new ResourceNotFoundError(`No suggestion ${id}.`, { param: 'id' });
}

export interface AppliedSuggestion {
  readonly suggestion: Suggestion;
  readonly decision: SuggestionDecision;
  readonly experiment: ExperimentRecord | null;
  readonly strategy: RecoveryStrategy | null;
}

/**
 * Applies a suggestion: starts its experiment (409 when one of its kind runs), or with `direct`
 * makes its setting the merchant's default, recording the decision (and who proposed it) in the
 * same transaction (409 when already decided, 404 when neither the analytics nor the neighbours
 * propose it).
 */
export async function applySuggestion(
  merchantId: string,
  id: string,
  mode: 'experiment' | 'direct',
  minimumSample: number | undefined,
  neighbours: NeighbourSearch,
  now: Date = new Date(),
): Promise<AppliedSuggestion> {
  return transactOptimistically<AppliedSuggestion>(async () => {
    const suggestion = await suggestionOrNotFound(merchantId, id, now, neighbours);
    const decision = (experimentId: string | null): SuggestionDecision => ({
      suggestion_id: id,
      status: 'applied',
      mode,
      experiment_id: experimentId,
      source: suggestion.source,
      decided_at: now.toISOString(),
    });
    if (mode === 'direct') {
      const { update, strategy } = recoveryDefaultWrite(
        merchantId,
        await getRecoveryStrategy(merchantId),
        suggestion.kind,
        suggestion.direct_setting,
        `suggestion:${id}`,
        now,
      );
      const decided = decision(null);
      return { items: [update, suggestionDecisionPut(merchantId, decided)], result: { suggestion, decision: decided, experiment: null, strategy } };
    }
    refuseOverlap(await listExperiments(merchantId), suggestion.kind);
    const experiment = newExperiment(
      {
        merchantId,
        name: suggestion.title,
        kind: suggestion.kind,
        settings: suggestion.experiment.variants,
        minimumSample,
        source: { type: 'suggestion', id },
      },
      now,
    );
    const decided = decision(experiment.id);
    return {
      items: [experimentPut(experiment), suggestionDecisionPut(merchantId, decided)],
      result: { suggestion, decision: decided, experiment, strategy: null },
    };
  });
}

/** Dismisses a suggestion: it is not proposed again. 409 when already decided, 404 when not proposed. */
export async function dismissSuggestion(
  merchantId: string,
  id: string,
  neighbours: NeighbourSearch,
  now: Date = new Date(),
): Promise<{ suggestion: Suggestion; decision: SuggestionDecision }> {
  return transactOptimistically(async () => {
    const suggestion = await suggestionOrNotFound(merchantId, id, now, neighbours);
    const decision: SuggestionDecision = {
      suggestion_id: id,
      status: 'dismissed',
      mode: null,
      experiment_id: null,
      source: suggestion.source,
      decided_at: now.toISOString(),
    };
    return { items: [suggestionDecisionPut(merchantId, decision)], result: { suggestion, decision } };
  });
}
