import type { CancelFlowOffer, CancelFlowStep, OfferType } from '#core/cancel-flows';
import type { OfferSetting } from './experiment';

/** The range of an offer value that is a number: a discount's percent off, a pause's months. */
export const NUMERIC_OFFER_RANGE: Readonly<Partial<Record<OfferType, { readonly min: number; readonly max: number; readonly unit: string }>>> = {
  discount: { min: 1, max: 100, unit: 'percent off' },
  pause: { min: 1, max: 12, unit: 'months' },
};

/**
 * An offer setting's `offer_value` as a cancel flow's offer holds it: a discount's percent and a
 * pause's months are the whole number it starts with (`"20"`, `"20%"`, `"2 months"`), within
 * NUMERIC_OFFER_RANGE; a downgrade's plan and a custom offer's text are the text itself. Undefined
 * when absent or not a number in range.
 *
 * @example offerValueOf('discount', '20% off') // 20
 */
export function offerValueOf(type: OfferType, text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  const range = NUMERIC_OFFER_RANGE[type];
  if (range === undefined) return text;
  const digits = /^\s*(\d{1,3})(?!\d)/.exec(text)?.[1];
  const value = digits === undefined ? Number.NaN : Number(digits);
  return value >= range.min && value <= range.max ? value : undefined;
}

/**
 * A cancel flow's steps as a customer with an offer setting sees them (the customer's variant of a
 * running offer experiment, or the merchant's default): `none` leaves the offer steps out (a survey
 * answer that branched to one goes on to the next step instead); any other type replaces the type
 * and value of every offer step (a discount keeps the step's duration when the step was a discount,
 * else lasts once). A setting without a value keeps the step's value when the step offers the same
 * type, and otherwise leaves that step as the flow has it. The steps are the session's snapshot: the
 * flow itself is not changed.
 *
 * @example stepsWithOffer(flow.steps, { offer_type: 'pause', offer_value: '2' }) // every offer step: a 2-month pause
 */
export function stepsWithOffer(steps: readonly CancelFlowStep[], setting: OfferSetting): CancelFlowStep[] {
  if (setting.offer_type === 'none') {
    const removed = new Set(steps.filter((step) => step.step_type === 'offer').map((step) => step.id));
    return steps
      .filter((step) => !removed.has(step.id))
      .map((step) => ({
        ...step,
        options: step.options.map((option) => (option.next_step !== null && removed.has(option.next_step) ? { ...option, next_step: null } : option)),
      }));
  }
  const type = setting.offer_type;
  const given = offerValueOf(type, setting.offer_value);
  return steps.map((step) => {
    if (step.step_type !== 'offer' || step.offer === null) return step;
    const value = given ?? (step.offer.type === type ? step.offer.value : undefined);
    if (value === undefined) return step;
    const offer: CancelFlowOffer = {
      ...step.offer,
      type,
      value,
      duration_months: type === 'discount' && step.offer.type === 'discount' ? step.offer.duration_months : null,
    };
    return { ...step, offer };
  });
}
