import * as z from 'zod';
import { CreateFile } from '../../../shared/domain/files/file';
import { ListQuery } from '../../../shared/http/pagination';
export { IdParams } from '../../../shared/http/params';

export { CreateFile };
export const FileFilters = z.strictObject({ ...ListQuery.shape });
