// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ElectroDB's key templates use its own ${attribute} syntax in plain strings.
import { Entity, Service } from 'electrodb';
import { dynamo } from '../../../shared/aws/dynamo';
import { config } from '../../../shared/config';
import { nameKey, type Tag } from '../../../shared/domain/tags/tag';
import { outboxFields, toTag, type TagStore } from './store';

const text = { type: 'string', required: true } as const;

/** The tags area's items as ElectroDB 3 entities, keyed exactly as the house keys them. */
const service = () => {
  const table = config().TABLE_NAME;
  const client = dynamo();
  const tag = new Entity(
    {
      model: { entity: 'TAG', version: '1', service: 'parley' },
      attributes: {
        tenant: text,
        _id: text,
        name: text,
        nameKey: text,
        color: text,
        description: { type: 'any' },
        createdAt: text,
        updatedAt: text,
        version: { type: 'number', required: true },
        deletingAt: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['tenant', '_id'], template: 'WS#${tenant}#TAG#${_id}', casing: 'none' },
          sk: { field: 'sk', composite: [], template: 'TAG', casing: 'none' },
        },
        byName: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['tenant'], template: 'WS#${tenant}#TAGS', casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['nameKey', '_id'], template: '${nameKey}#${_id}', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  const tagName = new Entity(
    {
      model: { entity: 'TAGNAME', version: '1', service: 'parley' },
      attributes: { tenant: text, nameKey: text, tagId: text },
      indexes: {
        byName: {
          pk: { field: 'pk', composite: ['tenant', 'nameKey'], template: 'WS#${tenant}#TAGNAME#${nameKey}', casing: 'none' },
          sk: { field: 'sk', composite: [], template: 'TAGNAME', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  const counter = new Entity(
    {
      model: { entity: 'COUNTER', version: '1', service: 'parley' },
      attributes: { tenant: text, name: text, n: { type: 'number' } },
      indexes: {
        byName: {
          pk: { field: 'pk', composite: ['tenant'], template: 'WS#${tenant}', casing: 'none' },
          sk: { field: 'sk', composite: ['name'], template: 'COUNTER#${name}', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  const customer = new Entity(
    {
      model: { entity: 'CUSTOMER', version: '1', service: 'parley' },
      attributes: { tenant: text, _id: text, tagIds: { type: 'set', items: 'string' } },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['tenant', '_id'], template: 'WS#${tenant}#CUSTOMER#${_id}', casing: 'none' },
          sk: { field: 'sk', composite: [], template: 'CUSTOMER', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  const tagLink = new Entity(
    {
      model: { entity: 'TAG_LINK', version: '1', service: 'parley' },
      attributes: { tenant: text, tagId: text, entityType: text, entityId: text, createdAt: text },
      indexes: {
        byTag: {
          pk: { field: 'pk', composite: ['tenant', 'tagId'], template: 'WS#${tenant}#TAGGED#${tagId}', casing: 'none' },
          sk: { field: 'sk', composite: ['entityType', 'entityId'], template: '${entityType}#${entityId}', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  const event = new Entity(
    {
      model: { entity: 'EVENT', version: '1', service: 'parley' },
      attributes: {
        tenant: text,
        eventId: text,
        type: text,
        eventType: text,
        workspaceId: text,
        payload: text,
        ttl: { type: 'number', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['eventId'], template: 'EVT#${eventId}', casing: 'none' },
          sk: { field: 'sk', composite: [], template: 'EVENT', casing: 'none' },
        },
        log: {
          index: 'gsi2',
          pk: { field: 'gsi2pk', composite: ['tenant'], template: 'WS#${tenant}#EVENTS', casing: 'none' },
          sk: { field: 'gsi2sk', composite: ['eventId'], template: '${eventId}', casing: 'none' },
        },
      },
    },
    { table, client },
  );
  return new Service({ tag, tagName, counter, customer, tagLink, event }, { table, client });
};

let built: ReturnType<typeof service> | undefined;
const parley = () => (built ??= service());

/** Transactions answer `canceled` rather than throw; a cancelled write is an error here as in the house. */
const committed = (result: { canceled: boolean }) => {
  if (result.canceled) throw new Error('transaction cancelled');
};

export const electrodb: TagStore = {
  create: async (tenant, tag) => {
    const result = await parley()
      .transaction.write(({ tag: tags, tagName, counter }) => [
        tags.create({ tenant, ...tag, nameKey: nameKey(tag.name), version: 1 }).commit(),
        tagName.create({ tenant, nameKey: nameKey(tag.name), tagId: tag._id }).commit(),
        counter.update({ tenant, name: 'tags' }).add({ n: 1 }).commit(),
      ])
      .go();
    committed(result);
  },
  // Items the house (or another library) wrote carry no ElectroDB identifiers: its reads must ignore ownership.
  get: async (tenant, id) => {
    const { data } = await parley().entities.tag.get({ tenant, _id: id }).go({ consistent: true, ignoreOwnership: true });
    return data && !data.deletingAt ? toTag(data as Tag) : undefined;
  },
  page: async (tenant, limit) => {
    const { data } = await parley().entities.tag.query.byName({ tenant }).go({ limit, ignoreOwnership: true });
    return data.map((t) => toTag(t as Tag));
  },
  tagCustomer: async (tenant, customerId, tagId, envelope) => {
    const result = await parley()
      .transaction.write(({ customer, tagLink, tag, counter, event }) => [
        customer
          .update({ tenant, _id: customerId })
          .add({ tagIds: [tagId] })
          .where((a, op) => `${op.exists(a._id)} AND ${op.notExists(a.tagIds)}`)
          .commit(),
        tagLink.put({ tenant, tagId, entityType: 'customer', entityId: customerId, createdAt: envelope.occurredAt }).commit(),
        tag
          .check({ tenant, _id: tagId })
          .where((a, op) => `${op.exists(a._id)} AND ${op.notExists(a.deletingAt)}`)
          .commit(),
        counter
          .update({ tenant, name: `tagged:${tagId}:customer` })
          .add({ n: 1 })
          .commit(),
        event.create(outboxFields(envelope)).commit(),
      ])
      .go();
    committed(result);
  },
};
