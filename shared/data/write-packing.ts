import { MAX_TRANSACTION_WRITES, type Write } from './transact';

/** The item a write addresses. */
const keyOf = ({ item }: Write): string => {
  const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string; sk: string };
  return `${key.pk}\u0000${key.sk}`;
};

/** An unconditional `ADD` of numbers (a counter's bump): two of them on one item add up to one. */
const isBump = ({ item }: Write): boolean =>
  Boolean(item.Update && !item.Update.ConditionExpression && item.Update.UpdateExpression?.startsWith('ADD '));

/** Two bumps of the same totals on one item as one bump of their sums; undefined when they are not alike. */
const addUp = (a: Write, b: Write): Write | undefined => {
  const [x, y] = [a.item.Update!, b.item.Update!];
  if (!isBump(a) || !isBump(b) || x.UpdateExpression !== y.UpdateExpression) return undefined;
  if (JSON.stringify(x.ExpressionAttributeNames) !== JSON.stringify(y.ExpressionAttributeNames)) return undefined;
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x.ExpressionAttributeValues ?? {})) {
    const w = y.ExpressionAttributeValues?.[k];
    if (typeof v !== 'number' || typeof w !== 'number') return undefined;
    values[k] = v + w;
  }
  return { item: { Update: { ...x, ExpressionAttributeValues: values } } };
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
