import { describe, expect, it, vi } from 'vitest';

const send = vi.fn();
vi.mock('../../../shared/aws/dynamo', () => ({ dynamo: () => ({ send }) }));
const { batchGet } = await import('../../../shared/data/batch-get');
const { config } = await import('../../../shared/config');

const key = (n: number) => ({ pk: `P#${n}`, sk: 'S' });

describe('batch reads', () => {
  it('retry the keys DynamoDB left unprocessed and return every item in the order asked', async () => {
    const table = config().TABLE_NAME;
    send
      .mockResolvedValueOnce({ Responses: { [table]: [{ ...key(2), n: 2 }] }, UnprocessedKeys: { [table]: { Keys: [key(1)] } } })
      .mockResolvedValueOnce({ Responses: { [table]: [{ ...key(1), n: 1 }] } });
    expect(await batchGet([key(1), key(2), key(3)])).toEqual([
      { ...key(1), n: 1 },
      { ...key(2), n: 2 },
    ]);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]![0].input.RequestItems[table].Keys).toEqual([key(1)]);
  });

  it('give up, loudly, when keys stay unprocessed', async () => {
    const table = config().TABLE_NAME;
    send.mockReset().mockResolvedValue({ Responses: { [table]: [] }, UnprocessedKeys: { [table]: { Keys: [key(1)] } } });
    vi.useFakeTimers();
    const refused = expect(batchGet([key(1)])).rejects.toThrow(/unprocessed/);
    await vi.runAllTimersAsync();
    await refused;
    vi.useRealTimers();
  });
});
