import type { ErasureStep } from '../domain/erasure/erasure';

/**
 * How an erasure treats each declared entity that holds personal data (`personal` in its declaration), by
 * entity name. `step`: the step that removes or clears the customer's copy, and how. `none`: the entity holds
 * no customer's data, or holds it in a form the erasure does not reach, and why. A unit test holds this map to
 * the declarations, so an entity declared with personal data and no entry here fails the build's tests.
 */
export type Coverage = { step: ErasureStep; how: string } | { none: string };

export const erasureCoverage: Record<string, Coverage> = {
  Customer: { step: 'customer', how: 'deleted, with its tag links, and uncounted' },
  'Customer unique value': { step: 'customer', how: 'its email, phone and channel identity guards deleted with it' },
  Conversation: { step: 'conversations', how: 'deleted with its list memberships (counted lists stay exact) and tag links' },
  Message: { step: 'conversations', how: "deleted with its conversation (every item of the conversation's partition)" },
  'Email thread': { step: 'conversations', how: "deleted with its conversation (an item of the conversation's partition)" },
  File: { step: 'conversations', how: "the files its conversations' messages hold: bytes deleted, then the record, uncounted" },
  Lead: { step: 'leads', how: 'the link to the customer cleared; the lead stays (it is the team’s deal)' },
  Task: { step: 'tasks', how: 'the link to the customer cleared; the task stays' },
  Activity: {
    step: 'activities',
    how: 'on a lead: the link to the customer cleared (it stays on the lead); on the customer alone: deleted',
  },
  Booking: { step: 'bookings', how: 'title, notes, location and cancellation reason cleared; the slot stays' },
  Broadcast: { none: "the campaign's subject and content are the team's message to many, not one customer's" },
  'Broadcast recipient': { step: 'broadcastRecipients', how: "the customer's entry deleted from every broadcast; the campaign stays" },
  'Webhook response body': {
    step: 'deliveries',
    how: 'the response bodies receivers answered to the deliveries of the deleted events, deleted with them',
  },
  'Outbox event': { step: 'events', how: 'every stored event whose payload names the customer, its conversations or files, deleted' },
  'Event body by id': {
    step: 'events',
    how: 'an event stored before the log moved into its tenant partition is found and deleted with the others; a ping body names no customer',
  },
  'Idempotency record': { step: 'idempotencyRecords', how: 'every recorded answer that names them deleted, with its body chunks' },
  'Idempotency body chunk': { step: 'idempotencyRecords', how: 'deleted with the record whose answer names them' },
  'Workflow execution': {
    step: 'workflowExecutions',
    how: 'every execution whose starting event names the customer, its conversations, files, email or phone, deleted whole, finished or not',
  },
  'Workflow execution index item': { step: 'workflowExecutions', how: 'deleted with its execution' },
  'Workflow execution step': { step: 'workflowExecutions', how: 'deleted with its execution' },
  'Workflow side effect': { step: 'workflowExecutions', how: 'deleted with its execution' },
  'Import failed row': {
    step: 'bulkCsvs',
    how: "scrubbed when it names the customer, with its import's CSV rows naming them emptied (the rows keep their place); exports' CSVs too",
  },
  'Sandbox provider send': {
    none: "the test-mode provider's own log of what it sent: it stands for the provider's side, as a real provider keeps what it delivered",
  },
  Member: { none: "a team member's own data, not a customer's" },
  'Member email claim': { none: "a team member's own email, not a customer's" },
  'Rate-limit window': { none: "a token or a source IP address, counted for an hour at most; never a customer's" },
};
