import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { winBackRoutes } from './routes';
import { startWinBack } from './start-win-back';

/** The win-back Lambda: sends and records win-back offers. */
export const handler = createGroupHandler(winBackRoutes, { startWinBack }, apiKeyAuth);
