import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { config } from '../../shared/config';
import { batchGetJoined } from '../../shared/data/batch-get';
import { useTestStack } from '../support/stack';

useTestStack({ gateway: false, workers: false });

/** The keys of each BatchGetItem this process sends to DynamoDB Local. */
const requests: string[][] = [];
registerClientPlugin({
  applyToStack: (middleware) =>
    middleware.add(
      (next, context) => async (args) => {
        if (context.commandName === 'BatchGetItemCommand') {
          const input = args.input as { RequestItems: Record<string, { Keys: { pk: string; sk: string }[] }> };
          requests.push(Object.values(input.RequestItems).flatMap((r) => r.Keys.map((k) => `${k.pk}|${k.sk}`)));
        }
        return next(args);
      },
      { step: 'initialize', name: 'countBatchGets' },
    ),
});

const key = (pk: string) => ({ pk: `JOINED#${pk}`, sk: 'S' });
const put = (pk: string) => dynamo().send(new PutCommand({ TableName: config().TABLE_NAME, Item: { ...key(pk), value: pk } }));

describe('reads joined in one turn of the event loop', () => {
  beforeEach(() => {
    requests.length = 0;
  });

  it('go out as one BatchGetItem reading each key once, and each caller gets its own items in its order', async () => {
    await Promise.all(['a', 'b', 'c', 'shared'].map(put));
    requests.length = 0;
    const [first, second, third] = await Promise.all([
      batchGetJoined([key('a'), key('shared')]),
      batchGetJoined([key('shared'), key('b'), key('missing')]),
      batchGetJoined([key('c')]),
    ]);
    expect(first!.map((item) => item?.value)).toEqual(['a', 'shared']);
    expect(second!.map((item) => item?.value)).toEqual(['shared', 'b', undefined]);
    expect(third!.map((item) => item?.value)).toEqual(['c']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.toSorted()).toEqual(['a', 'b', 'c', 'missing', 'shared'].map((k) => `JOINED#${k}|S`));
  });

  it('asked in a later turn, go out on their own', async () => {
    await put('a');
    requests.length = 0;
    const first = await batchGetJoined([key('a')]);
    const second = await batchGetJoined([key('a')]);
    expect([first[0]?.value, second[0]?.value]).toEqual(['a', 'a']);
    expect(requests).toHaveLength(2);
  });

  it('fail together: a refused request rejects every read it carried', async () => {
    const results = await Promise.allSettled([batchGetJoined([key('a')]), batchGetJoined([{ pk: '', sk: 'S' }])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(results.map((r) => (r as PromiseRejectedResult).reason.name)).toEqual(['ValidationException', 'ValidationException']);
  });
});
