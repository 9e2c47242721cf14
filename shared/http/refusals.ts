import { type AppError, ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import { Missing, type Refusal, Refused } from '../domain/refusal';

/** What each refusal answers: a 422 naming the request field it concerns, or a 409 (with the refusal's details). */
const ANSWER: Record<Refusal, { field: string } | 'conflict'> = {
  no_such_customer: { field: 'customerId' },
  no_such_conversation: { field: 'conversationId' },
  no_such_lead: { field: 'leadId' },
  no_such_channel: { field: 'channelId' },
  no_such_pipeline: { field: 'pipelineId' },
  no_such_stage: { field: 'stageId' },
  stage_outside_pipeline: { field: 'stageId' },
  conversation_of_another_sender: { field: 'conversationId' },
  assignee_not_active: { field: 'assigneeId' },
  activity_without_subject: { field: 'leadId' },
  timeline_of_lead_and_customer: { field: 'customerId' },
  broadcast_still_running: { field: 'status' },
  invalid_cursor: { field: 'cursor' },
  page_too_deep: { field: 'page' },
  unique_value_taken: 'conflict',
  customer_has_leads: 'conflict',
  merge_raced: 'conflict',
  merge_too_large: 'conflict',
  tag_name_taken: 'conflict',
  tagging_interrupted: 'conflict',
  stage_holds_leads: 'conflict',
  slot_taken: 'conflict',
  subscription_url_taken: 'conflict',
  subscription_limit_reached: 'conflict',
  secret_rotated_concurrently: 'conflict',
  token_already_revoked: 'conflict',
  last_owner: 'conflict',
  member_email_taken: 'conflict',
  storage_quota_exceeded: 'conflict',
  file_attached: 'conflict',
  file_not_attachable: 'conflict',
};

/** A repository's refusal or missing record as the contract error it answers; anything else is undefined. */
export const answerOf = (error: unknown): AppError | undefined => {
  if (error instanceof Missing) return new NotFoundError(error.entity);
  if (!(error instanceof Refused)) return undefined;
  const answer = ANSWER[error.refusal];
  return answer === 'conflict'
    ? new ConflictError(error.message, error.details)
    : new ValidationError([{ path: answer.field, message: error.message }]);
};
