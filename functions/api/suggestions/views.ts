import type { Suggestion } from '#core/experiments/suggestions';

/** The response body of a suggestion. */
export function suggestionView(suggestion: Suggestion) {
  return {
    id: suggestion.id,
    object: 'suggestion' as const,
    type: suggestion.type,
    title: suggestion.title,
    description: suggestion.description,
    kind: suggestion.kind,
    target: suggestion.target,
    source: suggestion.source,
    evidence: suggestion.evidence,
    expected_lift: suggestion.expected_lift,
    experiment_variants: suggestion.experiment.variants.map((setting) => ({ ...setting })),
    direct_setting: { ...suggestion.direct_setting },
    neighbour_evidence: suggestion.neighbour_evidence,
  };
}
