import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { sessionTokenAuth } from '#api/pipeline/session-token';
import { publicAuth } from '#api/pipeline/authenticator';
import { advanceCancelSession } from './advance-cancel-session';
import { completeCancelSession } from './complete-cancel-session';
import { getCancelSession } from './get-cancel-session';
import { cancelSessionsRoutes } from './routes';
import { showCancelPage } from './show-cancel-page';
import { startCancelSession } from './start-cancel-session';

/** The cancel-sessions Lambda (edge API): start (merchant's key), get, advance, complete (session token), and the hosted cancel page. */
export const handler = createGroupHandler(
  cancelSessionsRoutes,
  {
    startCancelSession,
    getCancelSession,
    advanceCancelSession,
    completeCancelSession,
    showCancelPage,
  },
  { ...apiKeyAuth, ...sessionTokenAuth, ...publicAuth },
);
