import type { Tenant } from '../domain/auth/tenant';
import { listActivities } from '../data/activities';
import { requireCustomer } from '../data/customers';
import { requireLead } from '../data/leads';
import type { PageRequest } from '../data/query';

export { addActivity, deleteActivity, listActivities, requireActivity } from '../data/activities';

const owners = { leadId: requireLead, customerId: requireCustomer };
export type TimelineOwner = keyof typeof owners;

/** A lead's or a customer's timeline, newest first; `Missing` when that lead or customer is unknown. */
export const entityTimeline = async (tenant: Tenant, owner: TimelineOwner, id: string, page: PageRequest) => {
  await owners[owner](tenant, id);
  return listActivities(tenant, { [owner]: id }, page);
};
