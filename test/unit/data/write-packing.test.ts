import { describe, expect, it } from 'vitest';
import { createItem, updateItem, type Write } from '../../../shared/data/transact';
import { mergeBumps, packWrites } from '../../../shared/data/write-packing';
import { bump as counterBump } from '../../../shared/data/counters';

const put = (pk: string) => createItem({ pk, sk: 'X' });
const bump = (n: number) =>
  updateItem({ pk: 'WS#w', sk: 'COUNTER#customers' }, 'ADD #c0 :c0', { names: { '#c0': 'n' }, values: { ':c0': n } });
const guarded = () =>
  updateItem({ pk: 'WS#w', sk: 'COUNTER#customers' }, 'ADD #c0 :c0', {
    names: { '#c0': 'n' },
    values: { ':c0': 1 },
    condition: '#c0 < :c0',
  });
const row = (i: number): Write[] => [put(`C#${i}`), put(`G#${i}`), bump(1), put(`ROW#${i}`)];

describe('packing rows of writes into transactions', () => {
  it('packs whole rows up to the limit, in order, adding up the bumps of one counter', () => {
    const packed = packWrites(Array.from({ length: 70 }, (_, i) => row(i)));
    // 3 puts a row and one bump a transaction: 32 rows make 97 items, the 33rd would make 100.
    expect(packed.map((p) => p.groups.length)).toEqual([32, 32, 6]);
    expect(packed.flatMap((p) => p.groups)).toEqual(Array.from({ length: 70 }, (_, i) => i));
    for (const p of packed) {
      expect(p.writes.length).toBeLessThanOrEqual(99);
      const bumps = p.writes.filter((w) => w.item.Update);
      expect(bumps.map((w) => w.item.Update!.ExpressionAttributeValues)).toEqual([{ ':c0': p.groups.length }]);
    }
  });

  it('never addresses an item twice: a row naming an item already in the transaction starts the next one', () => {
    const packed = packWrites([[put('A'), put('B')], [put('C')], [put('B'), put('D')], [guarded()], [guarded()]]);
    expect(packed.map((p) => p.groups)).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('a row larger than the limit is a transaction alone', () => {
    const big = Array.from({ length: 5 }, (_, i) => put(`B#${i}`));
    expect(packWrites([[put('A')], big, [put('C')]], 4).map((p) => p.groups)).toEqual([[0], [1], [2]]);
  });
});

describe('merging the bumps of one item in a transaction', () => {
  const item = { pk: 'WS#w', sk: 'COUNTER#conversations' };
  it('adds up bumps of one item into one, whatever totals each keeps, and maps each kept write to its first index', () => {
    const { writes, origin } = mergeBumps([
      counterBump(item, { 'status:open': 1, 'channel:email': 1 }),
      put('A'),
      counterBump(item, { customers: 1, 'status:open': 1 }),
      put('B'),
    ]);
    expect(origin).toEqual([0, 1, 3]);
    const update = writes[0]!.item.Update!;
    const totals = Object.fromEntries(
      Object.entries(update.ExpressionAttributeNames!).map(([name, total]) => [
        total,
        update.ExpressionAttributeValues![name.replace('#', ':')],
      ]),
    );
    expect(totals).toEqual({ 'status:open': 2, 'channel:email': 1, customers: 1 });
    expect(update.UpdateExpression).toBe('ADD #c0 :c0, #c1 :c1, #c2 :c2');
    expect(update.Key).toEqual(item);
  });

  it('leaves a conditional write, or another kind of update, of the same item as it is (DynamoDB then refuses the transaction)', () => {
    const limited = counterBump(item, { n: 1 }, { below: 5 });
    const set = updateItem(item, 'SET #c0 = :c0', { names: { '#c0': 'n' }, values: { ':c0': 1 } });
    for (const other of [limited, set]) expect(mergeBumps([counterBump(item, { n: 1 }), other]).writes).toHaveLength(2);
    expect(mergeBumps([bump(1), bump(2)]).writes.map((w) => w.item.Update!.ExpressionAttributeValues)).toEqual([{ ':c0': 3 }]);
  });
});
