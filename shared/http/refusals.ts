import { ValidationError } from '../domain/errors';
import type { Refusal, Refused } from '../domain/refusal';

/** The request field each refusal is about: the one a 422 names. */
const FIELD: Record<Refusal, string> = {
  no_such_customer: 'customerId',
  no_such_conversation: 'conversationId',
  no_such_lead: 'leadId',
  no_such_channel: 'channelId',
  no_such_pipeline: 'pipelineId',
  no_such_stage: 'stageId',
  stage_outside_pipeline: 'stageId',
  conversation_of_another_sender: 'conversationId',
  assignee_not_active: 'assigneeId',
  activity_without_subject: 'leadId',
  timeline_of_lead_and_customer: 'customerId',
  broadcast_still_running: 'status',
  invalid_cursor: 'cursor',
  page_too_deep: 'page',
};

/** A repository's refusal as the 422 that names the request field it concerns. */
export const fieldErrorOf = (refused: Refused): ValidationError =>
  new ValidationError([{ path: FIELD[refused.refusal], message: refused.message }]);
