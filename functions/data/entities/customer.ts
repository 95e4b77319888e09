import { type CustomerRecord, customerBodyOf, withMoneyDefaults } from '#core/customers';
import { customerKeys, ENTITY } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (customer: CustomerRecord): string => customerBodyOf(customer.id) as string;

/** A customer: found by email and name (GSI1, GSI3), the root of its data partition (GSI2), open ones listed (GSI4, sparse). */
export const customerEntity = defineEntity<CustomerRecord>({
  name: ENTITY.customer,
  key: (customer) => customerKeys.customer(customer.merchant_id, bodyOf(customer)),
  indexes: (customer) => customerKeys.indexes(customer.merchant_id, { ...customer, body: bodyOf(customer) }),
  parse: (attributes) => withMoneyDefaults(attributes as unknown as CustomerRecord),
});
