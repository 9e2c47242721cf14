import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversationActivity, range } from '../../../shared/views/analytics';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { conversationsReport } from '../../../shared/analytics/reports';

export const handler = route(
  { scope: 'analytics:read', query: ReportQuery, response: z.strictObject({ range, conversations: conversationActivity }) },
  async ({ query, tenant, now }) => conversationsReport(tenant, query, now),
);
