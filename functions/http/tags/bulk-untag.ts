import { bulkRoute } from './bulk';

export const handler = bulkRoute('untag');
