import { route } from '../../../shared/http/route';
import { importWithUpload } from '../../../shared/views/imports';
import { requestImport } from '../../../shared/imports/imports';
import { CreateLeadsImport } from './schemas/leads-import';

export const handler = route(
  { scope: 'crm:create', body: CreateLeadsImport, status: 201, response: importWithUpload },
  async ({ body, tenant, now, unit }) => requestImport(unit, tenant, 'leads', { pipelineId: body.pipelineId }, body.columns ?? {}, now),
);
