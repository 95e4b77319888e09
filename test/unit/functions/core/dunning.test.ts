import { dunningRefusal, renderDunningEmail } from '#core/dunning';

describe('dunningRefusal', () => {
  it.each(['pending', 'retrying'] as const)('allows dunning when the recovery is %s', (status) => {
    // Act and assess
    expect(dunningRefusal(status)).toBeUndefined();
  });

  it.each([
    ['recovered', 'it is recovered'],
    ['terminal', 'it is terminal'],
    ['paused', 'it is paused: no dunning emails until it is resumed'],
  ] as const)('refuses dunning naming the status when the recovery is %s', (status, reason) => {
    // Act and assess
    expect(dunningRefusal(status)).toBe(reason);
  });
});

describe('renderDunningEmail', () => {
  it('names the amount and the merchant in the default subject when no subject is given', () => {
    // Act
    const email = renderDunningEmail({
      payment: { amount: 4999, currency: 'usd', invoice_id: 'in_1' },
      merchantName: 'Acme',
      customerName: 'Ada',
      subject: null,
    });
    // Assess
    expect(email.subject).toBe('Your payment of $49.99 to Acme did not go through');
    expect(email.text).toContain('Hello Ada,');
    expect(email.text).toContain('We could not collect your payment of $49.99 to Acme (invoice in_1).');
  });

  it("uses the caller's subject and a neutral greeting when given a subject and no customer name", () => {
    // Act
    const email = renderDunningEmail({
      payment: { amount: 5000, currency: 'jpy', invoice_id: null },
      merchantName: 'Kaisha',
      customerName: null,
      subject: 'About your plan',
    });
    // Assess
    expect(email.subject).toBe('About your plan');
    expect(email.text).toContain('Hello there,');
    expect(email.text).toContain('¥5,000 to Kaisha.');
  });
});
