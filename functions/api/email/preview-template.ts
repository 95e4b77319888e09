import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ResourceNotFoundError } from '#core/errors';
import { PLACEHOLDERS } from '#core/templates/placeholders';
import { renderTemplate } from '#core/templates/render';
import { placeholderValuesFor } from '#core/templates/values';
import { getMerchantCached } from '#data/merchant-repository';
import { listPayments } from '#data/payment-queries';
import { getTemplate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { previewTemplateSchemas } from './schemas';

const SAMPLE_AMOUNT = 4999;
const SAMPLE_RETRY_IN_MS = 3 * 86_400_000;

/** The origin the request came to: locally every host is one origin, so the sample link opens there. */
function originOf(event: APIGatewayProxyEvent): string {
  const header = (name: string): string | undefined => Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1] ?? undefined;
  const host = header('host') ?? 'localhost';
  const proto = header('x-forwarded-proto') ?? (/^(localhost|127\.|\[::1\])/.test(host) ? 'http' : 'https');
  return `${proto}://${host}`;
}

/**
 * GET /api/v1/templates/preview/{id}: a template (built-in or the merchant's) rendered with sample
 * data: the merchant's name, a sample customer, 49.99 in the currency of the merchant's latest
 * payment (usd before any; one Query of one item), a retry three days out, and a sample
 * update-payment link. `placeholders` lists every placeholder a template may use. 404 (`param: id`)
 * for an unknown id or another merchant's template.
 */
export const previewTemplate = defineOperation({ auth: 'api_key', schemas: previewTemplateSchemas }, async ({ event, params, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const template = await getTemplate(merchantId, params.id);
  if (template === undefined) throw new ResourceNotFoundError(`No template ${params.id}.`, { param: 'id' });
  const [merchant, latest] = await Promise.all([getMerchantCached(merchantId), listPayments(merchantId, {}, 1, 1)]);
  const currency = latest.payments[0]?.currency ?? 'usd';
  const values = placeholderValuesFor({
    payment: {
      amount: SAMPLE_AMOUNT,
      currency,
      customer_email: 'jane.doe@example.com',
      psp: 'stripe',
      decline_code: 'insufficient_funds',
      decline_subcategory: 'balance',
      next_retry_at: new Date(Date.now() + SAMPLE_RETRY_IN_MS).toISOString(),
      invoice_id: 'in_sample_0001',
      metadata: { subscription_name: 'Pro plan' },
    },
    customer: { name: 'Jane Doe', email: 'jane.doe@example.com' },
    merchant: { name: merchant?.name ?? 'Your company' },
    links: { update_payment_url: `${originOf(event)}/api/update-payment/preview` },
  });
  const rendered = renderTemplate(template, values);
  return {
    body: envelope(
      {
        id: template.id,
        name: template.name,
        channel: template.channel,
        subject: 'subject' in rendered ? rendered.subject : null,
        html_preview: 'html' in rendered ? rendered.html : null,
        text_preview: rendered.text,
        placeholders: [...PLACEHOLDERS],
      },
      requestId,
      merchantId,
    ),
  };
});
