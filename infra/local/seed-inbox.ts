import { createConversation, mutateConversation } from '../../shared/inbox/conversations';
import { createCustomer } from '../../shared/contacts/customers';
import { postMessage } from '../../shared/inbox/messages';
import { receiveIncoming } from '../../shared/channels/incoming';
import { assign } from '../../shared/domain/inbox/edits';
import { changeStatus } from '../../shared/domain/inbox/state-machine';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { direct } from '../../shared/data/unit';

/** Demo customers and conversations, so `GET /api/v1/inbox/conversations` shows something on a first start; returns a demo customer's id. */
export const seedInbox = async (tenant: Tenant, agentId: string): Promise<{ customerId: string }> => {
  const now = () => new Date();
  await createCustomer(
    direct,
    tenant,
    { name: 'Grace Hopper', email: 'grace@example.com', phone: '+14155550101', attributes: { plan: 'enterprise' } },
    now(),
  );

  const ada = await receiveIncoming(
    direct,
    tenant,
    {
      channel: 'email',
      customer: { identifier: 'ada@example.com', name: 'Ada Lovelace', email: 'ada@example.com' },
      content: 'Hi! My invoice shows the wrong VAT number.',
    },
    now(),
  );
  await postMessage(
    direct,
    tenant,
    ada.conversation._id,
    { type: 'note', content: 'Finance confirmed the fix ships Monday.', author: { type: 'system', id: null } },
    now(),
  );
  await postMessage(
    direct,
    tenant,
    ada.conversation._id,
    { type: 'outgoing', content: 'Thanks Ada, a corrected invoice is on its way.', author: { type: 'system', id: null } },
    now(),
  );
  await mutateConversation(direct, tenant, ada.conversation._id, (c) => ({ change: assign(c, agentId, now()) }), now());

  const linus = await receiveIncoming(
    direct,
    tenant,
    { channel: 'whatsapp', customer: { identifier: '+14155550199', name: 'Linus', phone: '+14155550199' }, content: 'Is the API down?' },
    now(),
  );
  await postMessage(
    direct,
    tenant,
    linus.conversation._id,
    { type: 'outgoing', content: 'All green on our side, could you retry?', author: { type: 'system', id: null } },
    now(),
  );
  await mutateConversation(direct, tenant, linus.conversation._id, (c) => ({ change: changeStatus(c, 'closed', { now: now() }) }), now());

  const web = await receiveIncoming(
    direct,
    tenant,
    { channel: 'web', customer: { identifier: 'visitor-42', name: 'Web visitor' }, content: 'Do you offer a nonprofit discount?' },
    now(),
  );
  await mutateConversation(
    direct,
    tenant,
    web.conversation._id,
    (c) => ({ change: changeStatus(c, 'snoozed', { snoozedUntil: new Date(Date.now() + 24 * 3600_000).toISOString(), now: now() }) }),
    now(),
  );
  await createConversation(
    direct,
    tenant,
    { customerId: ada.customer._id, channel: 'api', subject: 'Onboarding call', priority: 'high', status: 'pending' },
    now(),
  );
  return { customerId: ada.customer._id };
};
