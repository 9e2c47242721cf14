import * as z from 'zod';
import { ImportColumns } from '../../../../shared/domain/imports/columns';
import { ObjectId } from '../../../../shared/http/params';
import { built } from '../../../../shared/domain/built';

export const CreateLeadsImport = /* @__PURE__ */ built(() =>
  z.strictObject({
    pipelineId: ObjectId,
    columns: ImportColumns.optional().describe(
      'CSV header → field (`title`, `stageId`, `customerEmail`, `valueAmount`, `valueCurrency`, `source`, `expectedCloseDate` or `attributes.<key>`), or null to skip that column',
    ),
  }),
);
