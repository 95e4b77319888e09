import { CancelFlowStepsInput, normaliseSteps } from '#core/cancel-flows';
import { parseVariantSetting } from '#core/experiments/experiment';
import { offerValueOf, stepsWithOffer } from '#core/experiments/offer-setting';
import { SURVEY_FLOW } from '#test/fixtures/cancel-flows';

const steps = normaliseSteps(CancelFlowStepsInput.parse(SURVEY_FLOW.steps));
const offersOf = (list: ReturnType<typeof stepsWithOffer>) => Object.fromEntries(list.filter((s) => s.offer !== null).map((s) => [s.id, s.offer]));

describe('offerValueOf', () => {
  it.each([
    ['discount', '20', 20],
    ['discount', '20% off', 20],
    ['discount', ' 100%', 100],
    ['discount', '0%', undefined],
    ['discount', '1000', undefined],
    ['discount', 'twenty', undefined],
    ['pause', '2 months', 2],
    ['pause', '12', 12],
    ['pause', '13', undefined],
    ['downgrade', 'Basic', 'Basic'],
    ['custom', 'A free month', 'A free month'],
    ['discount', undefined, undefined],
  ] as const)('reads %s %j as %j', (type, text, expected) => {
    // Assess
    expect(offerValueOf(type, text)).toBe(expected);
  });

  it('accepts at experiment start exactly the values it can read', () => {
    // Assess
    expect(parseVariantSetting('offer', { offer_type: 'discount', offer_value: '10%' }, 'v')).toEqual({ offer_type: 'discount', offer_value: '10%' });
    expect(parseVariantSetting('offer', { offer_type: 'custom', offer_value: 'Anything goes' }, 'v')).toEqual({
      offer_type: 'custom',
      offer_value: 'Anything goes',
    });
  });
});

describe('stepsWithOffer', () => {
  it('replaces the type and value of every offer step, keeping a discount duration only for a discount step', () => {
    // Act
    const discounted = stepsWithOffer(steps, { offer_type: 'discount', offer_value: '15%' });
    const paused = stepsWithOffer(steps, { offer_type: 'pause', offer_value: '1' });
    // Assess
    expect(offersOf(discounted)).toEqual({
      discount: expect.objectContaining({ type: 'discount', value: 15, duration_months: 3 }),
      pause: expect.objectContaining({ type: 'discount', value: 15, duration_months: null, redemption_cap: 2 }),
    });
    expect(offersOf(paused)).toEqual({
      discount: expect.objectContaining({ type: 'pause', value: 1, duration_months: null }),
      pause: expect.objectContaining({ type: 'pause', value: 1 }),
    });
  });

  it("keeps a step's own value for a setting of its type without one, and leaves a step of another type as it is", () => {
    // Act
    const offers = offersOf(stepsWithOffer(steps, { offer_type: 'discount' }));
    // Assess
    expect(offers).toEqual({ discount: steps[1]?.offer, pause: steps[2]?.offer });
  });

  it('leaves the offer steps out for none, and a survey answer that branched to one goes on in order', () => {
    // Act
    const none = stepsWithOffer(steps, { offer_type: 'none' });
    // Assess
    expect(none.map((s) => s.id)).toEqual(['why', 'confirm']);
    expect(none[0]?.options.map((o) => o.next_step)).toEqual([null, null, null]);
    expect(steps.map((s) => s.id)).toEqual(['why', 'discount', 'pause', 'confirm']);
  });
});
