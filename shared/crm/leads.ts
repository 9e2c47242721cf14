export { createLead, deleteLead, moveLeadToStage, requireLead, updateLead } from '../data/leads';
export { listLeads, stageHistory } from '../data/leads-list';
