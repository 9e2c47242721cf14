import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { file } from '../../../shared/views/files';
import { paginationOf } from '../../../shared/http/pagination';
import { listFiles } from '../../../shared/files/files';
import { FileFilters } from './schemas';

export const handler = route({ scope: 'inbox:read', query: FileFilters, response: listOf('files', file) }, async ({ query, tenant }) => {
  const { files, total, nextCursor } = await listFiles(tenant, query);
  return { files, pagination: paginationOf(total, query, nextCursor) };
});
