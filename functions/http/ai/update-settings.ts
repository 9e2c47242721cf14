import { route } from '../../../shared/http/route';
import { UpdateSettings } from '../../../shared/domain/ai/settings';
import { updateAiSettings } from '../../../shared/data/ai-settings';

export const handler = route({ scope: 'ai:write', body: UpdateSettings }, async ({ body, tenant, now }) => ({
  settings: await updateAiSettings(tenant, body, now),
}));
