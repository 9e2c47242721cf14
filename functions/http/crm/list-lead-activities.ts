import { requireLead } from '../../../shared/data/leads';
import { timeline } from './timeline';

export const handler = timeline('leadId', requireLead);
