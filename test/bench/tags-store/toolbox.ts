import { Entity } from 'dynamodb-toolbox/entity';
import { GetItemCommand } from 'dynamodb-toolbox/entity/actions/get';
import { ConditionCheck } from 'dynamodb-toolbox/entity/actions/transactCheck';
import { PutTransaction } from 'dynamodb-toolbox/entity/actions/transactPut';
import { UpdateTransaction } from 'dynamodb-toolbox/entity/actions/transactUpdate';
import { execute } from 'dynamodb-toolbox/entity/actions/transactWrite';
import { $add } from 'dynamodb-toolbox/entity/actions/update/symbols';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { set } from 'dynamodb-toolbox/schema/set';
import { string } from 'dynamodb-toolbox/schema/string';
import { Table } from 'dynamodb-toolbox/table';
import { QueryCommand } from 'dynamodb-toolbox/table/actions/query';
import { dynamo } from '../../../shared/aws/dynamo';
import { config } from '../../../shared/config';
import { nameKey } from '../../../shared/domain/tags/tag';
import { outboxFields, toTag, type TagStore } from './store';

const index = (name: string) =>
  ({ type: 'global', partitionKey: { name: `${name}pk`, type: 'string' }, sortKey: { name: `${name}sk`, type: 'string' } }) as const;

/** The tags area's items as dynamodb-toolbox 2 entities, keyed exactly as the house keys them. */
const entities = () => {
  const table = new Table({
    name: config().TABLE_NAME,
    partitionKey: { name: 'pk', type: 'string' },
    sortKey: { name: 'sk', type: 'string' },
    indexes: { gsi1: index('gsi1'), gsi2: index('gsi2') },
    documentClient: dynamo(),
  });
  const tag = new Entity({
    name: 'TAG',
    table,
    timestamps: false,
    schema: item({
      tenant: string().key(),
      _id: string().key(),
      name: string(),
      nameKey: string(),
      color: string(),
      description: anyOf(string(), nul()),
      createdAt: string(),
      updatedAt: string(),
      version: number(),
      deletingAt: string().optional(),
    }).and((prev) => ({
      gsi1pk: string().link<typeof prev>(({ tenant }) => `WS#${tenant}#TAGS`),
      gsi1sk: string().link<typeof prev>(({ nameKey: key, _id }) => `${key}#${_id}`),
    })),
    computeKey: ({ tenant, _id }) => ({ pk: `WS#${tenant}#TAG#${_id}`, sk: 'TAG' }),
  });
  const tagName = new Entity({
    name: 'TAGNAME',
    table,
    timestamps: false,
    schema: item({ tenant: string().key(), nameKey: string().key(), tagId: string() }),
    computeKey: ({ tenant, nameKey: key }) => ({ pk: `WS#${tenant}#TAGNAME#${key}`, sk: 'TAGNAME' }),
  });
  const counter = new Entity({
    name: 'COUNTER',
    table,
    timestamps: false,
    schema: item({ tenant: string().key(), name: string().key(), n: number().optional() }),
    computeKey: ({ tenant, name }) => ({ pk: `WS#${tenant}`, sk: `COUNTER#${name}` }),
  });
  const customer = new Entity({
    name: 'CUSTOMER',
    table,
    timestamps: false,
    schema: item({ tenant: string().key(), _id: string().key(), tagIds: set(string()).optional() }),
    computeKey: ({ tenant, _id }) => ({ pk: `WS#${tenant}#CUSTOMER#${_id}`, sk: 'CUSTOMER' }),
  });
  const tagLink = new Entity({
    name: 'TAG_LINK',
    table,
    timestamps: false,
    schema: item({
      tenant: string().key(),
      tagId: string().key(),
      entityType: string().key(),
      entityId: string().key(),
      createdAt: string(),
    }),
    computeKey: ({ tenant, tagId, entityType, entityId }) => ({ pk: `WS#${tenant}#TAGGED#${tagId}`, sk: `${entityType}#${entityId}` }),
  });
  const event = new Entity({
    name: 'EVENT',
    table,
    timestamps: false,
    schema: item({
      eventId: string().key(),
      tenant: string(),
      type: string(),
      eventType: string(),
      workspaceId: string(),
      payload: string(),
      ttl: number(),
    }).and((prev) => ({
      gsi2pk: string().link<typeof prev>(({ tenant }) => `WS#${tenant}#EVENTS`),
      gsi2sk: string().link<typeof prev>(({ eventId }) => eventId),
    })),
    computeKey: ({ eventId }) => ({ pk: `EVT#${eventId}`, sk: 'EVENT' }),
  });
  return { table, tag, tagName, counter, customer, tagLink, event };
};

let built: ReturnType<typeof entities> | undefined;
const parley = () => (built ??= entities());

export const toolbox: TagStore = {
  create: async (tenant, tag) => {
    const { tag: tags, tagName, counter } = parley();
    await execute(
      tags
        .build(PutTransaction)
        .item({ tenant, ...tag, nameKey: nameKey(tag.name), version: 1 })
        .options({ condition: { attr: '_id', exists: false } }),
      tagName
        .build(PutTransaction)
        .item({ tenant, nameKey: nameKey(tag.name), tagId: tag._id })
        .options({ condition: { attr: 'tagId', exists: false } }),
      counter.build(UpdateTransaction).item({ tenant, name: 'tags', n: $add(1) }),
    );
  },
  get: async (tenant, id) => {
    const { Item } = await parley().tag.build(GetItemCommand).key({ tenant, _id: id }).options({ consistent: true }).send();
    return Item && !Item.deletingAt ? toTag(Item) : undefined;
  },
  page: async (tenant, limit) => {
    const { table, tag } = parley();
    const { Items = [] } = await table
      .build(QueryCommand)
      .entities(tag)
      .query({ index: 'gsi1', partition: `WS#${tenant}#TAGS` })
      .options({ limit, entityAttrFilter: false })
      .send();
    return Items.map(toTag);
  },
  tagCustomer: async (tenant, customerId, tagId, envelope) => {
    const { customer, tagLink, tag, counter, event } = parley();
    await execute(
      customer
        .build(UpdateTransaction)
        .item({ tenant, _id: customerId, tagIds: $add(new Set([tagId])) })
        .options({
          condition: {
            and: [
              { attr: '_id', exists: true },
              { attr: 'tagIds', exists: false },
            ],
          },
        }),
      tagLink.build(PutTransaction).item({ tenant, tagId, entityType: 'customer', entityId: customerId, createdAt: envelope.occurredAt }),
      tag
        .build(ConditionCheck)
        .key({ tenant, _id: tagId })
        .condition({
          and: [
            { attr: '_id', exists: true },
            { attr: 'deletingAt', exists: false },
          ],
        }),
      counter.build(UpdateTransaction).item({ tenant, name: `tagged:${tagId}:customer`, n: $add(1) }),
      event.build(PutTransaction).item(outboxFields(envelope)),
    );
  },
};
