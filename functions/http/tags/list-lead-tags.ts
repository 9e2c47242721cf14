import { listEntityTags } from './entity-tags';

export const handler = listEntityTags('lead');
