import { route } from '../../../shared/http/route';
import { member } from '../../../shared/views/members';
import { listOf } from '../../../shared/views/common';
import { paginationOf } from '../../../shared/http/pagination';
import { listMembers } from '../../../shared/workspace/members';
import { MemberFilters } from './schemas';

export const handler = route(
  { scope: 'admin:all', query: MemberFilters, response: listOf('members', member) },
  async ({ query, tenant }) => {
    const { page, limit, cursor, ...filters } = query;
    const { members, total, nextCursor } = await listMembers(tenant, filters, { page, limit, cursor });
    return { members, pagination: paginationOf(total, query, nextCursor) };
  },
);
