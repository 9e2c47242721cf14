import { route } from '../../../shared/http/route';
import { getAiSettings } from '../../../shared/data/ai-settings';

export const handler = route({ scope: 'ai:read' }, async ({ tenant }) => ({ settings: await getAiSettings(tenant) }));
