import { MAX_TRANSACTION_WRITES, type Write } from './transact';

/** The item a write addresses. */
const keyOf = ({ item }: Write): string => {
  const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string };
  return `${key.pk}\u0000${key.sk}`;
};

/** A counter's bump as `bump` writes it: an unconditional `ADD #c0 :c0, #c1 :c1, …` of numbers. */
const BUMP = /^ADD #c\d+ :c\d+(, #c\d+ :c\d+)*$/;

/** The totals a write adds to and by how much, when it is a counter's bump. */
const deltasOf = ({ item }: Write): Map<string, number> | undefined => {
  const update = item.Update;
  if (!update || update.ConditionExpression || !BUMP.test(update.UpdateExpression ?? '')) return undefined;
  const deltas = new Map<string, number>();
  for (const [, name, value] of update.UpdateExpression!.matchAll(/(#c\d+) (:c\d+)/g)) {
    const total = update.ExpressionAttributeNames?.[name!];
    const delta = update.ExpressionAttributeValues?.[value!];
    if (typeof total !== 'string' || typeof delta !== 'number') return undefined;
    deltas.set(total, (deltas.get(total) ?? 0) + delta);
  }
  return deltas;
};

/**
 * Two bumps of one item as one bump of their totals (those they share added up); undefined when either is not a
 * bump. DynamoDB refuses a transaction that addresses an item twice: a customer's first message counts the new
 * customer and its conversation on the workspace's count item, each with a bump of its own.
 */
const addUp = (a: Write, b: Write): Write | undefined => {
  const [x, y] = [deltasOf(a), deltasOf(b)];
  if (!x || !y) return undefined;
  for (const [total, delta] of y) x.set(total, (x.get(total) ?? 0) + delta);
  const totals = [...x];
  return {
    item: {
      Update: {
        ...a.item.Update!,
        UpdateExpression: `ADD ${totals.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(totals.map(([total], i) => [`#c${i}`, total])),
        ExpressionAttributeValues: Object.fromEntries(totals.map(([, delta], i) => [`:c${i}`, delta])),
      },
    },
  };
};

/**
 * One transaction's writes with the bumps of one item added up into one, and for each write kept the index of the
 * first write it stands for (a failed condition names a write by its index in what was sent).
 */
export const mergeBumps = (writes: readonly Write[]): { writes: Write[]; origin: number[] } => {
  const merged: Write[] = [];
  const origin: number[] = [];
  const at = new Map<string, number>();
  writes.forEach((write, i) => {
    const index = at.get(keyOf(write));
    const sum = index === undefined ? undefined : addUp(merged[index]!, write);
    if (sum) {
      merged[index!] = sum;
      return;
    }
    at.set(keyOf(write), merged.length);
    merged.push(write);
    origin.push(i);
  });
  return { writes: merged, origin };
};

/** One transaction packed from whole groups of writes, and the indexes of the groups it holds. */
export interface Packed {
  writes: Write[];
  groups: number[];
}

/**
 * Packs groups of writes (each a unit that must commit whole: one import row's change and its outcome) into
 * as few transactions as fit, in order: a group goes into the current transaction unless that would pass
 * `max` items or address an item twice, which DynamoDB refuses; bumps of one counter are added up instead
 * (a chunk's creates raise the customers total once). A group larger than `max` is a transaction alone.
 */
export const packWrites = (groups: readonly Write[][], max = MAX_TRANSACTION_WRITES): Packed[] => {
  const packed: Packed[] = [];
  let current: Packed & { at: Map<string, number> } = { writes: [], groups: [], at: new Map() };
  const close = () => {
    if (current.groups.length) packed.push({ writes: current.writes, groups: current.groups });
    current = { writes: [], groups: [], at: new Map() };
  };
  /** The writes as they would stand with `group` added, or undefined when it does not fit. */
  const withGroup = (group: readonly Write[]) => {
    const writes = [...current.writes];
    const at = new Map(current.at);
    for (const write of group) {
      const key = keyOf(write);
      const index = at.get(key);
      if (index === undefined) {
        at.set(key, writes.length);
        writes.push(write);
        continue;
      }
      const merged = addUp(writes[index]!, write);
      if (!merged) return undefined;
      writes[index] = merged;
    }
    return writes.length <= max ? { writes, at } : undefined;
  };
  groups.forEach((group, i) => {
    let fit = withGroup(group);
    if (!fit && current.groups.length) {
      close();
      fit = withGroup(group);
    }
    current = fit ? { ...fit, groups: [...current.groups, i] } : { writes: [...group], groups: [i], at: new Map() };
    if (!fit) close();
  });
  close();
  return packed;
};
