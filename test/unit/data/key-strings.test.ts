import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testTenant } from '../../../shared/domain/auth/tenant';
import { newCustomer, uniqueValues } from '../../../shared/domain/contacts/customer';
import { completeTask, newTask, taskListsOf, type Task } from '../../../shared/domain/crm/task';
import { guardKey } from '../../../shared/data/customers';
import { isIdempotencyRecord, isImportRow, isSandboxSend, requestPipelinePartitions } from '../../../shared/data/key-conditions';
import { membershipWrites } from '../../../shared/data/lists';
import { sandboxSend, channelSend } from '../../../shared/data/registry/channels';
import { customerGuard } from '../../../shared/data/registry/contacts';
import { importFailure, importRow } from '../../../shared/data/registry/imports';
import { conversation } from '../../../shared/data/registry/inbox';
import { idempotency, idempotencyBody, rateLimit, token } from '../../../shared/data/registry/requests';

/**
 * The key strings the data layer builds since their fragments moved out of the domain, infra and the services are
 * byte for byte those built before (the builders as they were are written out here), so every stored item is still
 * found by the key it was stored under.
 */
const tenant = testTenant('0123456789abcdef01234567');
const segment = fc.stringMatching(/^[a-z0-9:+._@~-]{1,12}$/);
/** A value the key's last hole takes whole: it may hold the separator. */
const tail = fc.stringMatching(/^[a-z0-9#:+._@-]{1,16}$/);
const time = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

describe('the customer guards', () => {
  it("a channel identity's guard is keyed as `CUSTOMER_IDENTITY#<channel>#<identifier>` was before", () => {
    fc.assert(
      fc.property(fc.constantFrom('sms', 'whatsapp', 'email', 'web'), tail, (channel, identifier) => {
        const before = customerGuard.key({ tenant, kind: 'CUSTOMER_IDENTITY', value: `${channel}#${identifier}` });
        expect(guardKey(tenant, { kind: 'IDENTITY', identity: { channel: channel as 'sms', identifier } })).toEqual(before);
        expect(before.pk).toBe(`WS#${tenant}#CUSTOMER_IDENTITY#${channel}#${identifier}`);
      }),
    );
  });

  it("a customer's unique values are guarded under the keys they had", () => {
    const c = newCustomer(
      { email: 'A@B.io', phone: '+15550000001', identities: [{ channel: 'sms', identifier: '+1#x' }] },
      'a'.repeat(24),
      new Date(),
    );
    expect(uniqueValues(c).map((u) => guardKey(tenant, u))).toEqual([
      { pk: `WS#${tenant}#CUSTOMER_EMAIL#a@b.io`, sk: 'GUARD' },
      { pk: `WS#${tenant}#CUSTOMER_PHONE#+15550000001`, sk: 'GUARD' },
      { pk: `WS#${tenant}#CUSTOMER_IDENTITY#sms#+1#x`, sk: 'GUARD' },
    ]);
  });
});

describe('list memberships', () => {
  /** The membership keys as the domain and the repository built them before (`<time>#<id>` in the domain). */
  const keysBefore = (t: Task) => {
    const assignee = t.assigneeId ?? 'none';
    const created = ['all', `status:${t.status}`, `assignee:${assignee}`, `assignee:${assignee}:status:${t.status}`];
    const due = t.status === 'open' && t.dueAt ? ['due', `due:assignee:${assignee}`] : [];
    return [
      ...created.map((list) => ({ pk: `WS#${tenant}#TASKLIST#${list}`, sk: `${t.createdAt}#${t._id}` })),
      ...due.map((list) => ({ pk: `WS#${tenant}#TASKLIST#${list}`, sk: `${t.dueAt}#${t._id}` })),
    ];
  };
  const keysNow = (t: Task) =>
    membershipWrites(tenant, 'task', t._id, [], taskListsOf(t)).flatMap((w) => {
      const item = w.item.Put?.Item;
      return item && item.type === 'LIST_MEMBER' ? [{ pk: item.pk, sk: item.sk }] : [];
    });

  it("a task's memberships are stored under the keys they had, by creation and by due time", () => {
    fc.assert(
      fc.property(
        time,
        fc.option(time, { nil: undefined }),
        fc.option(segment, { nil: undefined }),
        fc.boolean(),
        (created, dueAt, assigneeId, done) => {
          const open = newTask({ title: 'Call', dueAt, assigneeId }, 'f'.repeat(24), new Date(created));
          const task = done ? completeTask(open, new Date(created)).task : open;
          expect(keysNow(task)).toEqual(keysBefore(task));
        },
      ),
    );
  });
});

describe('what infra matches keys by', () => {
  it('the request pipeline partitions are the IAM leading-key prefixes: token items and failed-authentication counters', () => {
    expect(requestPipelinePartitions).toEqual(['TOKEN#', 'RL#AUTHFAIL#']);
    expect(token.key({ hash: 'h' }).pk.startsWith(requestPipelinePartitions[0]!)).toBe(true);
    expect(rateLimit.key({ sourceIp: '1.2.3.4', window: '1' }).pk.startsWith(requestPipelinePartitions[1]!)).toBe(true);
  });

  it("the fault points pick out the items they picked before (`sk = IDEM`, `#SANDBOX#` in pk, sk `ROW#…`) among their neighbours'", () => {
    const before = {
      idempotency: (k: { pk: string; sk: string }) => k.sk === 'IDEM',
      sandbox: (k: { pk: string; sk: string }) => k.pk.includes('#SANDBOX#'),
      importRow: (k: { pk: string; sk: string }) => k.sk.startsWith('ROW#'),
    };
    fc.assert(
      fc.property(segment, segment, tail, (a, b, rest) => {
        const keys = [
          idempotency.key({ tenant, tokenId: a, keyDigest: b }),
          idempotencyBody.key({ tenant, tokenId: a, keyDigest: b, n: '000' }),
          sandboxSend.key({ tenant, channelId: a, sendKey: rest }),
          channelSend.key({ tenant, channelId: a, sendKey: rest }),
          importRow.key({ tenant, id: a, record: b }),
          importFailure.key({ tenant, id: a, record: b }),
          conversation.key({ tenant, id: a }),
          token.key({ hash: rest }),
        ];
        for (const key of keys) {
          expect(isIdempotencyRecord(key)).toBe(before.idempotency(key));
          expect(isSandboxSend(key)).toBe(before.sandbox(key));
          expect(isImportRow(key)).toBe(before.importRow(key));
        }
        expect(keys.map((k) => [isIdempotencyRecord(k), isSandboxSend(k), isImportRow(k)].filter(Boolean).length)).toEqual([
          1, 0, 1, 0, 1, 0, 0, 0,
        ]);
      }),
    );
  });
});
