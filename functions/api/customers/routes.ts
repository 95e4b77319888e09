import { type RouteDef, v1 } from '#api/route-rows';
import {
  deleteCustomerSchemas,
  getCustomerByEmailSchemas,
  getCustomerSchemas,
  listCustomerPaymentsSchemas,
  listCustomerRecoveriesSchemas,
  listCustomersSchemas,
  pauseAllCustomerPaymentsSchemas,
  resumeAllCustomerPaymentsSchemas,
} from './schemas';

/** The `customers` group's rows of the route table: its Lambda serves exactly these. */
export const customersRoutes: readonly RouteDef[] = [
  v1('customers', 'GET', '/customers', 'listCustomers', ['read', 'read:customers'], 'List customers', { schemas: listCustomersSchemas }),
  v1('customers', 'GET', '/customers/by-email/{email}', 'getCustomerByEmail', ['read', 'read:customers'], 'Customer by email with recovery stats', {
    schemas: getCustomerByEmailSchemas,
  }),
  v1('customers', 'GET', '/customers/{id}', 'getCustomer', ['read', 'read:customers'], 'One customer, by id or provider customer id', {
    schemas: getCustomerSchemas,
  }),
  v1('customers', 'GET', '/customers/{id}/payments', 'listCustomerPayments', ['read', 'read:customers'], 'Payments of a customer', {
    schemas: listCustomerPaymentsSchemas,
  }),
  v1('customers', 'GET', '/customers/{id}/recoveries', 'listCustomerRecoveries', ['read', 'read:customers'], 'Recoveries of a customer', {
    schemas: listCustomerRecoveriesSchemas,
  }),
  v1(
    'customers',
    'POST',
    '/customers/{id}/pause-all',
    'pauseAllCustomerPayments',
    ['write', 'write:customers'],
    'Pause recovery of all active payments of a customer',
    { schemas: pauseAllCustomerPaymentsSchemas },
  ),
  v1(
    'customers',
    'POST',
    '/customers/{id}/resume-all',
    'resumeAllCustomerPayments',
    ['write', 'write:customers'],
    'Resume recovery of all paused payments of a customer',
    { schemas: resumeAllCustomerPaymentsSchemas },
  ),
  v1('customers', 'DELETE', '/customers/{id}', 'deleteCustomer', ['admin', 'admin:customers'], 'Erase all data of a customer (GDPR Art. 17)', {
    schemas: deleteCustomerSchemas,
  }),
];
