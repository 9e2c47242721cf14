import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { agentActivity, range } from '../../../shared/views/analytics';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { agentsReport } from '../../../shared/analytics/reports';

export const handler = route(
  { scope: 'analytics:read', query: ReportQuery, response: z.strictObject({ range, agents: z.array(agentActivity) }) },
  async ({ query, tenant, now }) => agentsReport(tenant, query, now),
);
