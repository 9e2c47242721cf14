import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { settings } from '../../../shared/views/ai';
import { UpdateSettings } from '../../../shared/domain/ai/settings';
import { updateAiSettings } from '../../../shared/ai/settings';

export const handler = route(
  { scope: 'ai:write', body: UpdateSettings, response: z.strictObject({ settings }) },
  async ({ body, tenant, now, unit }) => ({
    settings: await updateAiSettings(unit, tenant, body, now),
  }),
);
