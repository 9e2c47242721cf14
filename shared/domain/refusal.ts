/**
 * Why a repository could not do what it was asked, in the data's own terms: a record a write names is
 * missing or in the wrong state, or a read was asked for a page it cannot give. Which request field that
 * concerns is the HTTP layer's business (shared/http/refusals.ts), never the repository's.
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
  | 'page_too_deep';

export class Refused extends Error {
  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super(message);
    this.name = 'Refused';
  }
}
