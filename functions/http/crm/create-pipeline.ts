import { route } from '../../../shared/http/route';
import { createPipeline } from '../../../shared/data/pipelines';
import { CreatePipeline } from './schemas';

export const handler = route({ scope: 'crm:create', body: CreatePipeline, status: 201 }, async ({ body, tenant, now }) => ({
  pipeline: await createPipeline(tenant, body, now),
}));
