import { attachTags } from './entity-tags';

export const handler = attachTags('lead');
