import { route } from '../../../shared/http/route';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { conversationsReport } from '../../../shared/analytics/reports';

export const handler = route({ scope: 'analytics:read', query: ReportQuery }, async ({ query, tenant, now }) => conversationsReport(tenant, query, now));
