import { type RouteDef, READ, v1 } from '#api/route-rows';
import { getDeclineCodeSchemas, listDeclineCategoriesSchemas, listDeclineCodesSchemas } from './schemas';

/** The `decline-codes` group's rows of the route table: its Lambda serves exactly these. */
export const declineCodesRoutes: readonly RouteDef[] = [
  v1('decline-codes', 'GET', '/decline-codes', 'listDeclineCodes', READ, 'The decline-code catalogue', { schemas: listDeclineCodesSchemas }),
  v1('decline-codes', 'GET', '/decline-codes/categories', 'listDeclineCategories', READ, 'The decline category taxonomy', {
    schemas: listDeclineCategoriesSchemas,
  }),
  v1('decline-codes', 'GET', '/decline-codes/{code}', 'getDeclineCode', READ, 'One decline code with provider variations', { schemas: getDeclineCodeSchemas }),
];
