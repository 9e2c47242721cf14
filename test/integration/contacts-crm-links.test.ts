import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { create, CUSTOMERS, eventsOf, LEADS, makePipeline } from '../support/crm';
import { useTestStack } from '../support/stack';

/** A customer's CRM leads follow it through a merge, and keep it from being deleted. */
const env = useTestStack();

const setup = async () => {
  const t = await env.tenant();
  const { pipeline } = await makePipeline(t.api);
  const customer = (name: string) => create(t.api, CUSTOMERS, { name }, 'customer');
  const lead = (title: string, customerId: string) => create(t.api, LEADS, { title, pipelineId: pipeline._id, customerId }, 'lead');
  const leadsOf = async (customerId: string) => (await t.api.get(`${LEADS}?customerId=${customerId}`)).body.data;
  return { t, customer, lead, leadsOf };
};

describe("a customer's leads", () => {
  it('refuse its deletion with 409, which goes through once they are unlinked', async () => {
    const { t, customer, lead } = await setup();
    const c = await customer('Ada');
    const l = await lead('Annual plan', c._id);
    expectError(await t.api.delete(`${CUSTOMERS}/${c._id}`), 409, 'CONFLICT');
    expect((await t.api.get(`${CUSTOMERS}/${c._id}`)).status).toBe(200);
    expect((await t.api.get(`${LEADS}/${l._id}`)).body.data.lead.customerId).toBe(c._id);

    expect((await t.api.patch(`${LEADS}/${l._id}`, { customerId: null })).status).toBe(200);
    expect((await t.api.delete(`${CUSTOMERS}/${c._id}`)).status).toBe(200);
  });

  it("move to the base in a merge, each with one crm.lead.updated, and the lists' totals follow", async () => {
    const { t, customer, lead, leadsOf } = await setup();
    const base = await customer('Ada Lovelace');
    const mergee = await customer('A. Lovelace');
    const moving = [await lead('Annual plan', mergee._id), await lead('Add-on', mergee._id)];
    const staying = await lead('Renewal', base._id);

    const res = await t.api.post(`${CUSTOMERS}/merge`, { baseId: base._id, mergeeId: mergee._id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ mergedCustomerId: mergee._id, leadsMoved: 2 });

    const now = await leadsOf(base._id);
    expect(now.pagination.total).toBe(3);
    expect(now.leads.map((l: { _id: string }) => l._id).sort()).toEqual([...moving.map((l) => l._id), staying._id].sort());
    expect((await leadsOf(mergee._id)).pagination.total).toBe(0);
    for (const l of moving) {
      const updated = await eventsOf(t.workspaceId, 'lead', l._id, 'crm.lead.updated');
      expect(updated).toHaveLength(1);
      expect(updated[0]!.changes).toEqual({ customerId: [mergee._id, base._id] });
    }
    expectError(await t.api.get(`${CUSTOMERS}/${mergee._id}`), 404, 'NOT_FOUND');
  });
});
