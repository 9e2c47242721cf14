import * as z from 'zod';
import { CreateFile } from '../../../shared/domain/files/file';
import { ListQuery } from '../../../shared/http/pagination';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

export { CreateFile };
export const FileFilters = /* @__PURE__ */ built(() => z.strictObject({ ...ListQuery.shape }));
