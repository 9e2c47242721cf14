import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipelineActivity, range } from '../../../shared/views/analytics';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { pipelineReport } from '../../../shared/analytics/reports';

export const handler = route(
  { scope: 'analytics:read', query: ReportQuery, response: z.strictObject({ range, pipeline: pipelineActivity }) },
  async ({ query, tenant, now }) => pipelineReport(tenant, query, now),
);
