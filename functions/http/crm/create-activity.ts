import { route } from '../../../shared/http/route';
import { addActivity } from '../../../shared/data/activities';
import { CreateActivity } from './schemas';

export const handler = route({ scope: 'crm:create', body: CreateActivity, status: 201 }, async ({ body, tenant, now }) => ({
  activity: await addActivity(tenant, body, now),
}));
