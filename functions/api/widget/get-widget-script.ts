import { createHash } from 'node:crypto';
import { defineOperation } from '#api/operation';
import { WIDGET_SCRIPT } from './widget-script';
import { widgetScriptSchemas } from './schemas';

const ETAG = `"${createHash('sha256').update(WIDGET_SCRIPT).digest('base64url').slice(0, 22)}"`;

/**
 * GET /widget.js: the embeddable widget. Cached a day by browsers and CloudFront and served stale
 * for a week while revalidated (the URL is not versioned, so a fix reaches every page within a day).
 */
export const getWidgetScript = defineOperation({ auth: 'public', schemas: widgetScriptSchemas }, async () => ({
  body: undefined,
  html: WIDGET_SCRIPT,
  headers: {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
    ETag: ETAG,
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  },
}));
