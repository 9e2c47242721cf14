export { getAiSettings, updateAiSettings } from '../data/ai-settings';
