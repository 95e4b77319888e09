/** The public paths that answer a merchant's branding (widget and custom-hostname groups), each cached 5 minutes. */
export const brandingPaths = (merchantId: string): string[] => [
  `/api/widget/branding/${encodeURIComponent(merchantId)}`,
  `/api/custom-hostname/branding/${encodeURIComponent(merchantId)}`,
];
