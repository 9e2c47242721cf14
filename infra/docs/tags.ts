/**
 * The reference's tags: one per area, shared by the area's routes (`functions/http/<area>/`) and its webhook
 * events (`<prefix>.…`), so an area's events are listed beside its routes. Grouped for the sidebar with
 * `x-tagGroups`. An area or event prefix missing here fails the document's build, so none goes unnamed.
 */
interface Area {
  name: string;
  description: string;
  /** The route folders (`functions/http/<folder>`) and event prefixes (`<prefix>.…`) it covers. */
  keys: readonly string[];
}

const AREAS: readonly Area[] = [
  {
    name: 'Inbox',
    keys: ['inbox'],
    description:
      'Conversations with customers and the messages in them: assignment, status, snoozing, notes and the events each change emits.',
  },
  {
    name: 'Files',
    keys: ['files'],
    description:
      'Files on messages: uploaded straight to storage with a presigned POST, verified, attached to messages and downloaded (never inline) from a short-lived URL.',
  },
  {
    name: 'Channels',
    keys: ['channels', 'channel'],
    description:
      'Connected channel accounts (API, email, sandbox) that carry messages in and out, with their write-only signing secrets and send status.',
  },
  {
    name: 'Broadcasts',
    keys: ['broadcasts', 'broadcast'],
    description: 'One message sent to many customers: audience, scheduling, per-recipient delivery and cancellation.',
  },
  {
    name: 'Contacts',
    keys: ['contacts', 'customer'],
    description: 'Customers and their identities, attributes and merges: who a conversation or a lead is with.',
  },
  {
    name: 'CRM',
    keys: ['crm'],
    description: 'Leads moving through pipelines and stages, with tasks and the activity timeline around them.',
  },
  {
    name: 'Tags',
    keys: ['tags'],
    description: 'Labels for conversations, customers and leads, managed once per workspace.',
  },
  {
    name: 'Workflows',
    keys: ['workflows', 'workflow'],
    description:
      'Automations triggered by events, schedules or a call: versions, executions step by step, retries and error notifications.',
  },
  {
    name: 'AI',
    keys: ['ai'],
    description: 'The knowledge base of articles, its ranked search, and replies suggested from it for a conversation.',
  },
  {
    name: 'Scheduling',
    keys: ['scheduling'],
    description: "An assignee's free slots within business hours, and the bookings made in them, each as an iCalendar file.",
  },
  {
    name: 'Analytics',
    keys: ['analytics'],
    description: 'Reports over conversations, response and resolution times, agents, the pipeline and webhook deliveries.',
  },
  {
    name: 'Webhooks',
    keys: ['webhooks', 'webhook'],
    description:
      'Subscriptions that deliver events to your HTTPS endpoint, signed and retried, with a log of every attempt and the catalog of event types.',
  },
  {
    // The realtime routes only ticket a socket onto the events log's stream: one area, named for what it serves.
    name: 'Events',
    keys: ['events', 'realtime'],
    description:
      'The events log of the last 30 days (the envelopes webhooks deliver, filtered by the read scopes of the token) and tickets for the realtime socket that streams them live and resumes with `since`.',
  },
  {
    name: 'Authentication',
    keys: ['auth'],
    description: 'API tokens (scoped, live or test, revocable) and the workspaces a token may act in.',
  },
  {
    name: 'Workspace',
    keys: ['workspace'],
    description: "The workspace's settings (name, time zone, locale, business hours) and its members and their roles.",
  },
  {
    name: 'Reference',
    keys: ['docs'],
    description: 'This description of the API itself, as OpenAPI 3.1, public and without a token.',
  },
];

const GROUPS: readonly { name: string; tags: readonly string[] }[] = [
  { name: 'Messaging', tags: ['Inbox', 'Files', 'Channels', 'Broadcasts'] },
  { name: 'Customers', tags: ['Contacts', 'CRM', 'Tags'] },
  { name: 'Automation', tags: ['Workflows', 'AI', 'Scheduling'] },
  { name: 'Insights', tags: ['Analytics'] },
  { name: 'Platform', tags: ['Webhooks', 'Events', 'Authentication', 'Workspace', 'Reference'] },
];

/** The tag of a route folder or an event prefix; throws for one no area covers. */
export const tagOf = (key: string): string => {
  const found = AREAS.find((a) => a.keys.includes(key));
  if (!found) throw new Error(`No reference tag covers "${key}": add it to an area in infra/docs/tags.ts`);
  return found.name;
};

/** The document's `tags` (the areas in use, in reading order) and `x-tagGroups`, without empty groups. */
export const documentTags = (used: Iterable<string>) => {
  const inUse = new Set(used);
  const tags = AREAS.filter((a) => inUse.has(a.name)).map(({ name, description }) => ({ name, description }));
  const groups = GROUPS.map((g) => ({ name: g.name, tags: g.tags.filter((t) => inUse.has(t)) })).filter((g) => g.tags.length > 0);
  return { tags, 'x-tagGroups': groups };
};
