import { createServer } from 'node:https';
import { eventCatalog } from '../../shared/events/catalog';
import { ParleyFileRejectedError, uploadFile, type ParleyClient, type paths } from '../client/src/index';
import type { RuntimeInfo } from '../../infra/local/runtime-file';
import { receiverTls } from './receiver-tls';
import { CliError } from './target';

type Api = ParleyClient;
type WorkflowNode = paths['/api/v1/workflows']['post']['requestBody']['content']['application/json']['nodes'][number];

const planned = Object.fromEntries(
  eventCatalog.filter((e) => e.status === 'planned').map((e) => [e.type, 'planned: the catalog lists it, but nothing emits it yet']),
);

/**
 * Catalog types no API call can cause now, and why. Every other catalog type has a recipe below; a test
 * holds the two lists to the catalog.
 */
export const untriggerable: Record<string, string> = {
  ...planned,
  'scheduling.booking.reminder':
    'sent by a timer 24 h and 1 h before a booking starts, and a booking starts at the earliest on the next quarter hour',
  'scheduling.booking.completed': 'a booking can be completed only once it has started, and it cannot be made to start in the past',
  'scheduling.booking.no_show': 'a booking can be marked a no-show only once it has started, and it cannot be made to start in the past',
};

/** Types emitted in live mode only, whichever mode caused them: the workspace is one for both modes. */
export const liveOnly: ReadonlySet<string> = new Set(['auth.workspace.updated']);

let serial = 0;
const unique = () => `${Date.now().toString(36)}-${++serial}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const customer = async (api: Api) =>
  (await api.post('/contacts/customers', { body: { name: 'Ada Lovelace', email: `ada-${unique()}@example.com` } })).data.customer._id;

const conversation = async (api: Api, body: { channelId?: string } = {}) =>
  (await api.post('/inbox/conversations', { body: { customerId: await customer(api), subject: 'Where is my order?', ...body } })).data
    .conversation._id;

const tag = async (api: Api) => (await api.post('/tags', { body: { name: `parley trigger ${unique()}` } })).data.tag._id;

const invited = async (api: Api) =>
  (await api.post('/workspace/members', { body: { email: `agent-${unique()}@example.com`, role: 'agent' } })).data.member._id;

/** An active agent: what an assignee must be. */
const agent = async (api: Api) => {
  const id = await invited(api);
  await api.post('/workspace/members/{id}/accept', { params: { path: { id } } });
  return id;
};

const PNG_HEADER = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** A small text file, uploaded and verified. */
const textFile = (api: Api) =>
  uploadFile(api, `parley-trigger-${unique()}.txt`, new TextEncoder().encode('Hello from parley trigger\n'), 'text/plain');

const pipeline = async (api: Api) => (await api.post('/crm/pipelines', { body: { name: `Pipeline ${unique()}` } })).data.pipeline;

const lead = async (api: Api) => {
  const p = await pipeline(api);
  const { lead: created } = (await api.post('/crm/leads', { body: { title: 'Annual plan', pipelineId: p._id } })).data;
  const stage = (kind: string) => p.stages.find((s) => s.kind === kind && s._id !== created.stageId)!._id;
  return { id: created._id, stage };
};

const task = async (api: Api, dueAt?: string) =>
  (await api.post('/crm/tasks', { body: { title: 'Call back', ...(dueAt ? { dueAt } : {}) } })).data.task._id;

const sandbox = async (api: Api, config: { deliver?: boolean; read?: boolean; failWith?: string } = {}) =>
  (
    await api.post('/channels', {
      body: { type: 'sandbox', name: `Sandbox ${unique()}`, config: { deliver: true, read: false, failWith: null, ...config } },
    })
  ).data.channel._id;

/** A reply through a sandbox channel: it is sent, then its configured receipts move its status on. */
const sendThroughSandbox = async (api: Api, config: { deliver?: boolean; read?: boolean; failWith?: string }) => {
  const id = await conversation(api, { channelId: await sandbox(api, config) });
  await api.post('/inbox/conversations/{id}/messages', {
    params: { path: { id } },
    body: { type: 'outgoing', content: 'Your order shipped today.' },
  });
};

const broadcast = async (api: Api, config: { failWith?: string } = {}) =>
  (
    await api.post('/broadcasts', {
      body: {
        name: `Broadcast ${unique()}`,
        channelId: await sandbox(api, config),
        audience: { customerIds: [await customer(api)] },
        content: 'Our summer sale starts today.',
      },
    })
  ).data.broadcast._id;

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const HELLO: WorkflowNode = { id: 'hello', type: 'set_variable', config: { name: 'greeting', value: 'hello' } };
const FAIL: WorkflowNode = { id: 'boom', type: 'fail', config: { message: 'Failed on purpose by parley trigger' } };

/** A workflow of `nodes`, each leading to the next. */
const workflow = async (api: Api, nodes: WorkflowNode[] = [HELLO]) => {
  const edges = nodes.slice(1).map((node, i) => ({ from: nodes[i]!.id, to: node.id, branch: 'next' as const }));
  return (await api.post('/workflows', { body: { name: `Workflow ${unique()}`, trigger: { type: 'manual' }, nodes, edges } })).data.workflow
    ._id;
};

const run = async (api: Api, nodes: WorkflowNode[]) => {
  const id = await workflow(api, nodes);
  return (await api.post('/workflows/{id}/trigger', { params: { path: { id } }, body: { payload: {} } })).data.execution._id;
};

/** The next quarter hour at least `hours` ahead: bookings start on quarter hours. */
const quarterHourIn = (hours: number) => {
  const q = 15 * 60_000;
  return Math.ceil((Date.now() + hours * 3_600_000) / q) * q;
};

const booking = async (api: Api) => {
  const start = quarterHourIn(48);
  const body = {
    title: 'Demo call',
    customerId: await customer(api),
    assigneeId: await agent(api),
    startAt: new Date(start).toISOString(),
    endAt: new Date(start + 30 * 60_000).toISOString(),
  };
  return (await api.post('/scheduling/bookings', { body })).data.booking._id;
};

const article = async (api: Api) =>
  (await api.post('/ai/knowledge-base/articles', { body: { title: `Returns ${unique()}`, body: 'Returns are free for 30 days.' } })).data
    .article._id;

const path = (id: string) => ({ params: { path: { id } } });

/** Sends a CSV to an import's presigned POST, as a browser form would: the import then runs on its own. */
const sendCsv = async (upload: { url: string; fields: Record<string, string> }, csv: string) => {
  const form = new FormData();
  for (const [field, value] of Object.entries(upload.fields)) form.append(field, value);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'import.csv');
  const sent = await fetch(upload.url, { method: 'POST', body: form });
  if (!sent.ok) throw new CliError(`storage refused the import's CSV (${sent.status}): ${(await sent.text()).slice(0, 200)}`);
};

const customersImport = async (api: Api) => {
  const { upload } = (await api.post('/contacts/customers/imports', { body: { idProperty: 'email' } })).data;
  await sendCsv(upload, `email,name\nimported-${unique()}@example.com,Grace Hopper\n`);
};

const leadsImport = async (api: Api) => {
  const { upload } = (await api.post('/crm/leads/imports', { body: { pipelineId: (await pipeline(api))._id } })).data;
  await sendCsv(upload, `title\nImported deal ${unique()}\n`);
};

/**
 * An `api` account whose URL is a provider that refuses it: an HTTPS endpoint on 127.0.0.1 (served with the
 * certificate the running Parley trusts) answering 410 Gone, until a reply sent through it has errored it.
 */
const refusedAccount = async (api: Api, runtime: RuntimeInfo) => {
  const provider = createServer(receiverTls(runtime), (req, res) => req.resume().on('end', () => res.writeHead(410).end()));
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  try {
    const url = `https://127.0.0.1:${(provider.address() as { port: number }).port}/messages`;
    const { channel } = (await api.post('/channels', { body: { type: 'api', name: `Refused ${unique()}`, config: { url } } })).data;
    const id = await conversation(api, { channelId: channel._id });
    await api.post('/inbox/conversations/{id}/messages', { ...path(id), body: { type: 'outgoing', content: 'Hello?' } });
    for (let i = 0; i < 100; i++) {
      if ((await api.get('/channels/{id}', path(channel._id))).data.channel.status === 'error') return;
      await sleep(200);
    }
    throw new CliError(`channel ${channel._id} was not errored within 20 s of its provider's 410`);
  } finally {
    provider.close();
    provider.closeAllConnections();
  }
};

/** How to cause each triggerable type through the API: it makes whatever the change needs first. */
export const recipes: Record<string, (api: Api, runtime: RuntimeInfo) => Promise<unknown>> = {
  'inbox.conversation.created': (api) => conversation(api),
  'inbox.conversation.updated': async (api) =>
    api.patch('/inbox/conversations/{id}', { ...path(await conversation(api)), body: { subject: 'Order #1234 is late' } }),
  'inbox.conversation.assigned': async (api) =>
    api.post('/inbox/conversations/{id}/assign', { ...path(await conversation(api)), body: { assigneeId: await agent(api) } }),
  'inbox.conversation.unassigned': async (api) => {
    const id = await conversation(api);
    await api.post('/inbox/conversations/{id}/assign', { ...path(id), body: { assigneeId: await agent(api) } });
    return api.post('/inbox/conversations/{id}/unassign', path(id));
  },
  'inbox.conversation.status_changed': async (api) =>
    api.post('/inbox/conversations/{id}/status', { ...path(await conversation(api)), body: { status: 'pending' } }),
  'inbox.conversation.snoozed': async (api) =>
    api.post('/inbox/conversations/{id}/status', {
      ...path(await conversation(api)),
      body: { status: 'snoozed', snoozedUntil: inAnHour() },
    }),
  'inbox.conversation.closed': async (api) =>
    api.post('/inbox/conversations/{id}/status', { ...path(await conversation(api)), body: { status: 'closed' } }),
  'inbox.conversation.reopened': async (api) => {
    const id = await conversation(api);
    await api.post('/inbox/conversations/{id}/status', { ...path(id), body: { status: 'closed' } });
    return api.post('/inbox/conversations/{id}/status', { ...path(id), body: { status: 'open' } });
  },
  'inbox.conversation.priority_changed': async (api) =>
    api.patch('/inbox/conversations/{id}', { ...path(await conversation(api)), body: { priority: 'urgent' } }),
  'inbox.conversation.deleted': async (api) => api.delete('/inbox/conversations/{id}', path(await conversation(api))),
  'inbox.conversation.tagged': async (api) =>
    api.post('/inbox/conversations/{id}/tags', { ...path(await conversation(api)), body: { tagIds: [await tag(api)] } }),
  'inbox.conversation.untagged': async (api) => {
    const [id, tagId] = [await conversation(api), await tag(api)];
    await api.post('/inbox/conversations/{id}/tags', { ...path(id), body: { tagIds: [tagId] } });
    return api.delete('/inbox/conversations/{id}/tags/{tagId}', { params: { path: { id, tagId } } });
  },
  'inbox.message.received': (api) =>
    api.post('/inbox/messages/incoming', {
      body: {
        channel: 'api',
        customer: { identifier: `customer-${unique()}@example.com`, name: 'Grace' },
        content: 'Hello, is anyone there?',
      },
    }),
  'inbox.message.sent': async (api) =>
    api.post('/inbox/conversations/{id}/messages', {
      ...path(await conversation(api)),
      body: { type: 'outgoing', content: 'On its way!' },
    }),
  'inbox.note.created': async (api) =>
    api.post('/inbox/conversations/{id}/messages', { ...path(await conversation(api)), body: { type: 'note', content: 'VIP customer' } }),

  'customer.contact.created': (api) => customer(api),
  'customer.contact.updated': async (api) =>
    api.patch('/contacts/customers/{id}', { ...path(await customer(api)), body: { name: 'Ada King' } }),
  'customer.contact.deleted': async (api) => api.delete('/contacts/customers/{id}', path(await customer(api))),
  'customer.contact.erased': async (api) => api.post('/contacts/customers/{id}/erase', path(await customer(api))),
  'customer.contact.blocked': async (api) => api.post('/contacts/customers/{id}/block', path(await customer(api))),
  'customer.contact.unblocked': async (api) => {
    const id = await customer(api);
    await api.post('/contacts/customers/{id}/block', path(id));
    return api.post('/contacts/customers/{id}/unblock', path(id));
  },
  'customer.contact.merged': async (api) =>
    api.post('/contacts/customers/merge', { body: { baseId: await customer(api), mergeeId: await customer(api) } }),
  'customer.contact.tagged': async (api) =>
    api.post('/contacts/customers/{id}/tags', { ...path(await customer(api)), body: { tagIds: [await tag(api)] } }),
  'customer.contact.untagged': async (api) => {
    const [id, tagId] = [await customer(api), await tag(api)];
    await api.post('/contacts/customers/{id}/tags', { ...path(id), body: { tagIds: [tagId] } });
    return api.delete('/contacts/customers/{id}/tags/{tagId}', { params: { path: { id, tagId } } });
  },

  // Renamed and renamed back: two events, and the workspace is left as it was.
  'auth.workspace.updated': async (api) => {
    const { name } = (await api.get('/workspace')).data.workspace;
    await api.patch('/workspace', { body: { name: `${name.slice(0, 80)} (renamed)` } });
    return api.patch('/workspace', { body: { name } });
  },
  'auth.token.created': (api) => api.post('/auth/tokens', { body: { name: `parley trigger ${unique()}`, scopes: ['tags:read'] } }),
  'auth.token.revoked': async (api) => {
    const { token } = (await api.post('/auth/tokens', { body: { name: `parley trigger ${unique()}`, scopes: ['tags:read'] } })).data;
    return api.delete('/auth/tokens/{id}', path(token._id));
  },
  'auth.member.invited': (api) => invited(api),
  'auth.member.joined': (api) => agent(api),
  'auth.member.removed': async (api) => api.delete('/workspace/members/{id}', path(await invited(api))),
  'auth.member.role_changed': async (api) => api.patch('/workspace/members/{id}', { ...path(await agent(api)), body: { role: 'manager' } }),

  'crm.lead.created': (api) => lead(api),
  'crm.lead.updated': async (api) =>
    api.patch('/crm/leads/{id}', { ...path((await lead(api)).id), body: { title: 'Annual plan, 20 seats' } }),
  'crm.lead.deleted': async (api) => api.delete('/crm/leads/{id}', path((await lead(api)).id)),
  'crm.lead.stage_changed': async (api) => {
    const l = await lead(api);
    return api.post('/crm/leads/{id}/move', { ...path(l.id), body: { stageId: l.stage('open') } });
  },
  'crm.lead.assigned': async (api) =>
    api.patch('/crm/leads/{id}', { ...path((await lead(api)).id), body: { assigneeId: await agent(api) } }),
  'crm.lead.won': async (api) => {
    const l = await lead(api);
    return api.post('/crm/leads/{id}/move', { ...path(l.id), body: { stageId: l.stage('won') } });
  },
  'crm.lead.lost': async (api) => {
    const l = await lead(api);
    return api.post('/crm/leads/{id}/move', { ...path(l.id), body: { stageId: l.stage('lost'), lostReason: 'Chose a competitor' } });
  },
  'crm.lead.tagged': async (api) => api.post('/crm/leads/{id}/tags', { ...path((await lead(api)).id), body: { tagIds: [await tag(api)] } }),
  'crm.lead.untagged': async (api) => {
    const [{ id }, tagId] = [await lead(api), await tag(api)];
    await api.post('/crm/leads/{id}/tags', { ...path(id), body: { tagIds: [tagId] } });
    return api.delete('/crm/leads/{id}/tags/{tagId}', { params: { path: { id, tagId } } });
  },
  'crm.pipeline.created': (api) => pipeline(api),
  'crm.pipeline.updated': async (api) =>
    api.patch('/crm/pipelines/{id}', { ...path((await pipeline(api))._id), body: { name: `Renamed ${unique()}` } }),
  'crm.pipeline.deleted': async (api) => api.delete('/crm/pipelines/{id}', path((await pipeline(api))._id)),
  'crm.task.created': (api) => task(api),
  'crm.task.updated': async (api) => api.patch('/crm/tasks/{id}', { ...path(await task(api)), body: { title: 'Call back before noon' } }),
  'crm.task.completed': async (api) => api.post('/crm/tasks/{id}/complete', path(await task(api))),
  'crm.task.deleted': async (api) => api.delete('/crm/tasks/{id}', path(await task(api))),
  // Due already: the task timer, which runs every minute, sends it.
  'crm.task.due': (api) => task(api, new Date().toISOString()),
  'crm.activity.added': async (api) =>
    api.post('/crm/activities', { body: { type: 'call', leadId: (await lead(api)).id, subject: 'Discovery call' } }),
  'crm.activity.deleted': async (api) => {
    const { activity } = (
      await api.post('/crm/activities', { body: { type: 'note', leadId: (await lead(api)).id, body: 'Wants a quote' } })
    ).data;
    return api.delete('/crm/activities/{id}', path(activity._id));
  },

  'channel.account.connected': (api) => sandbox(api),
  'channel.account.errored': (api, runtime) => refusedAccount(api, runtime),
  'channel.account.disconnected': async (api) => api.post('/channels/{id}/disconnect', path(await sandbox(api))),
  'channel.account.updated': async (api) =>
    api.patch('/channels/{id}', { ...path(await sandbox(api)), body: { name: `Renamed ${unique()}` } }),
  'channel.account.deleted': async (api) => api.delete('/channels/{id}', path(await sandbox(api))),
  'channel.message.status_changed': (api) => sendThroughSandbox(api, { deliver: false }),
  'channel.message.sent': (api) => sendThroughSandbox(api, { deliver: false }),
  'channel.message.delivered': (api) => sendThroughSandbox(api, { deliver: true }),
  'channel.message.read': (api) => sendThroughSandbox(api, { deliver: true, read: true }),
  'channel.message.failed': (api) => sendThroughSandbox(api, { failWith: 'invalid_recipient' }),

  'workflow.definition.created': (api) => workflow(api),
  'workflow.definition.updated': async (api) => {
    const id = await workflow(api);
    return api.patch('/workflows/{id}', { ...path(id), body: { name: `Renamed ${unique()}` } });
  },
  'workflow.definition.activated': async (api) => api.post('/workflows/{id}/activate', path(await workflow(api))),
  'workflow.definition.deactivated': async (api) => {
    const id = await workflow(api);
    await api.post('/workflows/{id}/activate', path(id));
    return api.post('/workflows/{id}/deactivate', path(id));
  },
  'workflow.definition.deleted': async (api) => api.delete('/workflows/{id}', path(await workflow(api))),
  'workflow.execution.started': (api) => run(api, [HELLO]),
  'workflow.execution.completed': (api) => run(api, [HELLO]),
  'workflow.execution.failed': (api) => run(api, [FAIL]),
  'workflow.step.failed': (api) => run(api, [FAIL]),
  'workflow.execution.cancelled': async (api) => {
    // A wait delays the node after it: the run waits an hour before saying hello.
    const id = await run(api, [{ id: 'later', type: 'wait', config: { seconds: 3600 } }, HELLO]);
    return api.post('/workflows/executions/{id}/cancel', path(id));
  },

  'ai.article.created': (api) => article(api),
  'ai.article.updated': async (api) =>
    api.patch('/ai/knowledge-base/articles/{id}', { ...path(await article(api)), body: { title: `Returns policy ${unique()}` } }),
  'ai.article.deleted': async (api) => api.delete('/ai/knowledge-base/articles/{id}', path(await article(api))),

  'customer.import.started': (api) => customersImport(api),
  'customer.import.finished': (api) => customersImport(api),
  'crm.import.started': (api) => leadsImport(api),
  'crm.import.finished': (api) => leadsImport(api),

  'inbox.file.ready': (api) => textFile(api),
  'inbox.file.rejected': (api) =>
    // A PNG's first bytes declared as a PDF: the verifier rejects it as a type mismatch.
    uploadFile(api, 'not-a-pdf.pdf', PNG_HEADER, 'application/pdf').catch((error: unknown) => {
      if (!(error instanceof ParleyFileRejectedError)) throw error;
    }),
  'inbox.file.deleted': async (api) => api.delete('/files/{id}', path((await textFile(api))._id)),

  'broadcast.campaign.scheduled': async (api) =>
    api.post('/broadcasts/{id}/schedule', { ...path(await broadcast(api)), body: { at: inAnHour() } }),
  'broadcast.campaign.sending': async (api) => api.post('/broadcasts/{id}/send', path(await broadcast(api))),
  'broadcast.campaign.sent': async (api) => api.post('/broadcasts/{id}/send', path(await broadcast(api))),
  'broadcast.campaign.failed': async (api) =>
    api.post('/broadcasts/{id}/send', path(await broadcast(api, { failWith: 'invalid_recipient' }))),
  'broadcast.campaign.cancelled': async (api) => {
    const id = await broadcast(api);
    await api.post('/broadcasts/{id}/schedule', { ...path(id), body: { at: inAnHour() } });
    return api.post('/broadcasts/{id}/cancel', path(id));
  },
  'broadcast.recipient.delivered': async (api) => api.post('/broadcasts/{id}/send', path(await broadcast(api))),
  'broadcast.recipient.failed': async (api) =>
    api.post('/broadcasts/{id}/send', path(await broadcast(api, { failWith: 'invalid_recipient' }))),

  'scheduling.booking.created': (api) => booking(api),
  'scheduling.booking.confirmed': async (api) => api.post('/scheduling/bookings/{id}/confirm', path(await booking(api))),
  'scheduling.booking.rescheduled': async (api) => {
    const start = quarterHourIn(72);
    return api.post('/scheduling/bookings/{id}/reschedule', {
      ...path(await booking(api)),
      body: { startAt: new Date(start).toISOString(), endAt: new Date(start + 30 * 60_000).toISOString() },
    });
  },
  'scheduling.booking.cancelled': async (api) =>
    api.post('/scheduling/bookings/{id}/cancel', { ...path(await booking(api)), body: { reason: 'Customer asked' } }),
};

/** Every catalog type, in catalog order, that `trigger` can cause. */
const triggerableTypes = (): string[] => eventCatalog.map((e) => e.type).filter((t) => t in recipes);

export const triggerHelp = () =>
  `Triggerable: ${triggerableTypes().join(', ')}.\nNot triggerable: ${Object.entries(untriggerable)
    .map(([t, why]) => `${t} (${why})`)
    .join('; ')}.`;
