import { route } from '../../../shared/http/route';
import { ReportQuery } from '../../../shared/domain/analytics/report';
import { pipelineReport } from '../../../shared/analytics/reports';

export const handler = route({ scope: 'analytics:read', query: ReportQuery }, async ({ query, tenant, now }) => pipelineReport(tenant, query, now));
