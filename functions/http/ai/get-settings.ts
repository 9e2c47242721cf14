import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { settings } from '../../../shared/views/ai';
import { getAiSettings } from '../../../shared/ai/settings';

export const handler = route({ scope: 'ai:read', response: z.strictObject({ settings }) }, async ({ tenant }) => ({
  settings: await getAiSettings(tenant),
}));
