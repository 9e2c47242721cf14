import { detachTag } from './entity-tags';

export const handler = detachTag('lead');
