import { describe, expect, it } from 'vitest';
import { bump, sharded } from '../../../shared/data/counters';
import { keysOf } from '../../../shared/data/registry/define';

describe('counters', () => {
  it('bump every total of a counter item in one ADD', () => {
    const { Update } = bump({ pk: 'P', sk: 'C' }, { total: 1, 's:failed': -1 }).item;
    expect(Update).toMatchObject({
      Key: { pk: 'P', sk: 'C' },
      UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
      ExpressionAttributeNames: { '#c0': 'total', '#c1': 's:failed' },
      ExpressionAttributeValues: { ':c0': 1, ':c1': -1 },
    });
    expect(Update!.ConditionExpression).toBeUndefined();
  });

  it('refuse a bounded bump once the total has reached its bound', () => {
    const { Update } = bump({ pk: 'P', sk: 'C' }, { n: 1 }, { below: 100 }).item;
    expect(Update).toMatchObject({
      ConditionExpression: 'attribute_not_exists(#c0) OR #c0 < :below',
      ExpressionAttributeValues: { ':c0': 1, ':below': 100 },
    });
  });

  it('spread the bumps of a sharded counter over its shards', () => {
    const counter = sharded(keysOf({ pk: 'P#<id>', sk: 'C#<shard>' }), { id: 'x' }, 4);
    const shards = new Set(Array.from({ length: 200 }, () => bump(counter, { n: 1 }).item.Update!.Key!.sk));
    expect(shards).toEqual(new Set(['C#0', 'C#1', 'C#2', 'C#3']));
    expect(counter).toMatchObject({ pk: 'P#x', skPrefix: 'C#' });
  });
});
