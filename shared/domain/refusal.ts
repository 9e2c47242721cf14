/**
 * Why a repository could not do what it was asked, in the data's own terms: a record a write names is
 * missing or in the wrong state, a condition stood in the way, or a read was asked for a page it cannot give.
 * Which answer that becomes (a 422 naming a request field, a 409) is the HTTP layer's business
 * (shared/http/refusals.ts), never the repository's.
 */
export type Refusal =
  | 'no_such_customer'
  | 'no_such_conversation'
  | 'no_such_lead'
  | 'no_such_channel'
  | 'no_such_pipeline'
  | 'no_such_stage'
  | 'stage_outside_pipeline'
  | 'conversation_of_another_sender'
  | 'assignee_not_active'
  | 'activity_without_subject'
  | 'timeline_of_lead_and_customer'
  | 'broadcast_still_running'
  | 'invalid_cursor'
  | 'page_too_deep'
  | 'unique_value_taken'
  | 'customer_has_leads'
  | 'merge_raced'
  | 'merge_too_large'
  | 'tag_name_taken'
  | 'tagging_interrupted'
  | 'stage_holds_leads'
  | 'slot_taken'
  | 'subscription_url_taken'
  | 'subscription_limit_reached'
  | 'secret_rotated_concurrently'
  | 'token_already_revoked'
  | 'last_owner'
  | 'member_email_taken'
  | 'storage_quota_exceeded'
  | 'file_attached'
  | 'file_not_attachable';

export class Refused extends Error {
  constructor(
    readonly refusal: Refusal,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'Refused';
  }
}

/** What a record a call names by its own id can be. */
export type Entity =
  | 'Activity'
  | 'Article'
  | 'Booking'
  | 'Broadcast'
  | 'Channel'
  | 'Conversation'
  | 'File'
  | 'Customer'
  | 'Lead'
  | 'Member'
  | 'Pipeline'
  | 'Stage'
  | 'Subscription'
  | 'Tag'
  | 'Task'
  | 'Token'
  | 'Workflow'
  | 'Workspace';

/** The record a call names by its own id does not exist in the tenant (or stopped existing while the call ran). */
export class Missing extends Error {
  constructor(readonly entity: Entity) {
    super(`${entity} not found`);
    this.name = 'Missing';
  }
}
