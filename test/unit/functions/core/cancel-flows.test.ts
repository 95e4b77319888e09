import { CancelFlowStepsInput, normaliseSteps } from '#core/cancel-flows';

const issuesOf = (steps: unknown) => {
  const result = CancelFlowStepsInput.safeParse(steps);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
};

describe('cancel flow steps', () => {
  it('accepts a survey that branches to a later offer, and fills ids and defaults', () => {
    // Prepare
    const steps = [
      {
        step_type: 'survey',
        title: 'Why?',
        options: [
          { value: 'price', label: 'Price', next_step: 'deal' },
          { value: 'x', label: 'Other' },
        ],
      },
      { id: 'deal', step_type: 'offer', title: 'A deal', offer: { type: 'discount', value: 20 } },
      { step_type: 'confirm', title: 'Sure?' },
    ];
    // Act
    const parsed = CancelFlowStepsInput.parse(steps);
    const stored = normaliseSteps(parsed);
    // Assess
    expect(stored.map((step) => step.id)).toEqual(['step_1', 'deal', 'step_3']);
    expect(stored[1]?.offer).toEqual({ type: 'discount', value: 20, duration_months: null, redemption_cap: 1 });
    expect(stored[0]?.options[1]).toEqual({ value: 'x', label: 'Other', next_step: null });
  });

  it.each([
    [
      'a branch to a step that does not exist',
      [
        {
          step_type: 'survey',
          title: 'Why?',
          options: [
            { value: 'a', label: 'A', next_step: 'ghost' },
            { value: 'b', label: 'B' },
          ],
        },
      ],
      '0.options.0.next_step',
    ],
    [
      'a branch to a step that is not an offer',
      [
        {
          step_type: 'survey',
          title: 'Why?',
          options: [
            { value: 'a', label: 'A', next_step: 'end' },
            { value: 'b', label: 'B' },
          ],
        },
        { id: 'end', step_type: 'confirm', title: 'Sure?' },
      ],
      '0.options.0.next_step',
    ],
    ['an offer step without an offer', [{ step_type: 'offer', title: 'Deal' }], '0.offer'],
    ['an offer without a value', [{ step_type: 'offer', title: 'Deal', offer: { type: 'pause' } }], '0.offer.value'],
    ['a discount over 100%', [{ step_type: 'offer', title: 'Deal', offer: { type: 'discount', value: 150 } }], '0.offer.value'],
    ['a survey with one option', [{ step_type: 'survey', title: 'Why?', options: [{ value: 'a', label: 'A' }] }], '0.options'],
    [
      'two steps with one id',
      [
        { id: 'x', step_type: 'custom', title: 'A' },
        { id: 'x', step_type: 'custom', title: 'B' },
      ],
      '1.id',
    ],
    ['an unknown step type', [{ step_type: 'quiz', title: 'A' }], '0.step_type'],
    ['options on a confirm step', [{ step_type: 'confirm', title: 'A', options: [{ value: 'a', label: 'A' }] }], '0.options'],
    ['a title over 200 characters', [{ step_type: 'custom', title: 'x'.repeat(201) }], '0.title'],
  ])('refuses %s, naming the field', (_name, steps, path) => {
    // Act
    const issues = issuesOf(steps);
    // Assess
    expect(issues.map((issue) => issue.path)).toContain(path);
  });

  it('refuses more than 10 steps', () => {
    // Act
    const issues = issuesOf(Array.from({ length: 11 }, (_, index) => ({ step_type: 'custom', title: `Step ${index}` })));
    // Assess
    expect(issues.length).toBeGreaterThan(0);
  });
});
