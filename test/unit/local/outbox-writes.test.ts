import { describe, expect, it } from 'vitest';
import { marshall } from '@aws-sdk/util-dynamodb';
import { putsOutboxItem } from '../../../infra/local/outbox-writes';
import { EVENT_ITEM_TYPE } from '../../../shared/data/table';

const outbox = marshall({ pk: 'EVT#1', sk: 'EVT', type: EVENT_ITEM_TYPE });
const other = marshall({ pk: 'WS#1', sk: 'CUST#1', type: 'CUSTOMER' });

describe('the stream reader is woken by writes that put an outbox item', () => {
  it('finds the outbox item in a put, a transaction and a batch', () => {
    expect(putsOutboxItem('PutItemCommand', { Item: outbox })).toBe(true);
    expect(putsOutboxItem('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: other } }, { Put: { Item: outbox } }] })).toBe(
      true,
    );
    expect(
      putsOutboxItem('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: other } }, { PutRequest: { Item: outbox } }] } }),
    ).toBe(true);
  });

  it('ignores writes of other items, and calls that write nothing', () => {
    expect(putsOutboxItem('PutItemCommand', { Item: other })).toBe(false);
    expect(putsOutboxItem('TransactWriteItemsCommand', { TransactItems: [{ Put: { Item: other } }, {}] })).toBe(false);
    expect(putsOutboxItem('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: other } }, {}] } })).toBe(false);
    expect(putsOutboxItem('GetItemCommand', { Item: outbox })).toBe(false);
  });
});
