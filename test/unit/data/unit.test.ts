import { describe, expect, it } from 'vitest';
import { createItem } from '../../../shared/data/transact';
import { holdingUnit, SecondTransaction } from '../../../shared/data/unit';

const put = (pk: string) => createItem({ pk, sk: 'X' });

describe('the holding unit of work', () => {
  it('holds its one transaction, with its error map, and says so', async () => {
    const unit = holdingUnit();
    const onConditionFailed = () => new Error('lost');
    expect(await unit.commit([put('A'), put('B')], onConditionFailed)).toBe('held');
    expect(unit.held()).toEqual({ writes: [put('A'), put('B')], onConditionFailed });
  });

  it('refuses a second transaction (it may read what the first wrote), a lone write included', async () => {
    const unit = holdingUnit();
    await unit.writeAlone(put('A'));
    await expect(unit.commit([put('B')])).rejects.toBeInstanceOf(SecondTransaction);
    expect(unit.held()?.writes).toEqual([put('A')]);
  });

  it('runs the work that follows the commit only when settled, in order', async () => {
    const unit = holdingUnit();
    const ran: string[] = [];
    await unit.afterCommit(async () => void ran.push('first'));
    await unit.afterCommit(async () => void ran.push('second'));
    expect(ran).toEqual([]);
    await unit.settle();
    expect(ran).toEqual(['first', 'second']);
  });
});
