import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { range, webhookActivity } from '../../../shared/views/analytics';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { webhooksReport } from '../../../shared/analytics/reports';

export const handler = route(
  { scope: 'analytics:read', query: ReportQuery, response: z.strictObject({ range, webhooks: webhookActivity }) },
  async ({ query, tenant, now }) => webhooksReport(tenant, query, now),
);
