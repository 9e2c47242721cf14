import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { overview, range } from '../../../shared/views/analytics';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { overviewReport } from '../../../shared/analytics/reports';

export const handler = route(
  { scope: 'analytics:read', query: ReportQuery, response: z.strictObject({ range, overview }) },
  async ({ query, tenant, now }) => overviewReport(tenant, query, now),
);
