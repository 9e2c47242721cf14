import { DynamoDBClient, GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Pluggable } from '@smithy/types';
import { currentFunction } from '../../infra/local/aws-guard';
import { onInvoke } from '../../infra/local/lambda';
import { registerClientPlugin, withPlugins } from '../../shared/aws/plugins';
import { tableSchema } from '../../shared/data/table';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** DynamoDB bills a transactional write twice the units of a standard one. */
const TRANSACTION_FACTOR = 2;

interface Consumed {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** A standard write's units as DynamoDB Local reports them: the table's and every index's. */
const unitsOf = (c: Consumed | undefined): number => {
  if (!c) return 0;
  const indexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((n, i) => n + (i.CapacityUnits ?? 0), 0);
  const table = c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - indexes;
  return table + indexes;
};

type Item = Record<string, AttributeValue>;

/** DynamoDB's item size: each attribute's name and value in bytes (numbers about one byte per two digits). */
const valueBytes = (v: AttributeValue): number => {
  if (v.S !== undefined) return Buffer.byteLength(v.S);
  if (v.N !== undefined) return Math.ceil(v.N.replace(/[-.]/g, '').length / 2) + 1;
  if (v.B !== undefined) return v.B.length;
  if (v.SS) return v.SS.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + Math.ceil(s.length / 2) + 1, 0);
  if (v.L) return 3 + v.L.reduce((n, e) => n + 1 + valueBytes(e), 0);
  if (v.M) return 3 + itemBytes(v.M) + Object.keys(v.M).length;
  return 1;
};
const itemBytes = (item: Item): number => Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k) + valueBytes(v), 0);
const unitsOfItem = (item: Item | undefined) => (item ? Math.max(1, Math.ceil(itemBytes(item) / 1024)) : 0);

/** An index entry's image: the whole item under `ALL`, its table and index keys under `KEYS_ONLY`. */
const entryOf = (item: Item | undefined, index: (typeof tableSchema.indexes)[number]): Item | undefined => {
  if (!item || index.projection === 'ALL') return item;
  const keys = [tableSchema.partitionKey, tableSchema.sortKey, index.partitionKey, index.sortKey];
  return Object.fromEntries(keys.filter((k) => item[k]).map((k) => [k, item[k]!]));
};

/**
 * The index entries a change rewrites: a put or delete each, both when its key moved, and a rewrite when what
 * the index projects changed (under `KEYS_ONLY`, never without a key change).
 */
const indexUnits = (before: Item | undefined, after: Item | undefined): number =>
  tableSchema.indexes.reduce((n, i) => {
    const keyOf = (item: Item | undefined) =>
      item?.[i.partitionKey] && item[i.sortKey] ? `${item[i.partitionKey]!.S}|${item[i.sortKey]!.S}` : undefined;
    const [was, is] = [keyOf(before), keyOf(after)];
    if (was === undefined && is === undefined) return n;
    const [from, to] = [entryOf(before, i), entryOf(after, i)];
    if (was !== is) return n + unitsOfItem(was ? from : undefined) + unitsOfItem(is ? to : undefined);
    return n + (JSON.stringify(from) === JSON.stringify(to) ? 0 : unitsOfItem(to));
  }, 0);

let reader: DynamoDBClient | undefined;
const READ_ATTEMPTS = 5;
/** An item's image; DynamoDB Local may fail a read of an item a concurrent transaction holds, so it is read again. */
const read = async (table: string, key: Item): Promise<Item | undefined> => {
  reader ??= withPlugins(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION ?? 'us-east-1' }));
  for (let attempt = 1; ; attempt++) {
    try {
      return (await reader.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
    } catch (error) {
      if (attempt >= READ_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
};

interface Part {
  table: string;
  key: Item;
  condition: boolean;
}

/** A transaction's parts; the document client's input is still plain values here (it marshalls just before serializing). */
const partsOf = (input: Record<string, any>): Part[] =>
  (input.TransactItems as Record<string, any>[]).map((t) => {
    const w = t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck;
    const raw = t.Put
      ? { [tableSchema.partitionKey]: w.Item[tableSchema.partitionKey], [tableSchema.sortKey]: w.Item[tableSchema.sortKey] }
      : w.Key;
    const key = typeof raw[tableSchema.partitionKey] === 'string' ? marshall(raw) : (raw as Item);
    return { table: w.TableName as string, key, condition: !!t.ConditionCheck };
  });

/**
 * A committed transaction's units, from its items' images before and after: DynamoDB Local's report for a
 * transaction is not per item (one, two or three 1 KB puts all report 2 units), so here each item counts the
 * larger of its two images, doubled, a condition check too, and each index entry it rewrote once.
 */
const transactionUnits = async (parts: Part[], before: (Item | undefined)[], fn: string): Promise<number> => {
  const after = await Promise.all(parts.map((p) => (p.condition ? undefined : read(p.table, p.key))));
  const units = parts.map((p, i) => {
    const table = Math.max(1, unitsOfItem(before[i]), unitsOfItem(after[i]));
    return [TRANSACTION_FACTOR * table, p.condition ? 0 : indexUnits(before[i], after[i])] as const;
  });
  if (process.env.COST_ITEMS)
    for (const [i, p] of parts.entries())
      console.error(`${fn}\t${p.condition ? 'check' : 'write'}\t${p.key.pk?.S}\t${p.key.sk?.S}\t${units[i]![0]}+${units[i]![1]}`);
  return units.reduce((n, [t, x]) => n + t + x, 0);
};

/** The items one write request puts, updates or deletes (a transaction's condition checks write nothing). */
const itemsOf = (command: string, input: Record<string, any>): number => {
  if (command === 'TransactWriteItemsCommand')
    return (input.TransactItems ?? []).filter((t: Record<string, unknown>) => !t.ConditionCheck).length;
  if (command === 'BatchWriteItemCommand')
    return Object.values(input.RequestItems ?? {}).reduce((n: number, r) => n + (r as unknown[]).length, 0);
  return 1;
};

/** What one function wrote while the meter ran, and how often it was invoked. */
export interface FunctionWrites {
  calls: number;
  items: number;
  units: number;
}

const OUTSIDE = 'outside functions';
const writes = new Map<string, FunctionWrites>();
let metering = false;
/**
 * Writes begun while the meter ran whose units are not counted yet: a transaction's are counted from its items'
 * images read after it commits, which is after whoever waits for its effect (a file's `ready`) may have seen it.
 */
const inFlight = new Set<Promise<unknown>>();

const entry = (name: string): FunctionWrites => {
  const e = writes.get(name) ?? { calls: 0, items: 0, units: 0 };
  writes.set(name, e);
  return e;
};

/**
 * Write capacity units and items per function, and the function's invocations: for a standard write the
 * ConsumedCapacity DynamoDB Local reports, for a transaction the units its items' images give (the table's
 * doubled, as DynamoDB bills them; index writes counted once). Register before any client is created.
 */
export const registerCapacityMeter = (): void => {
  const plugin: Pluggable<any, any> = {
    applyToStack: (stack) =>
      stack.add(
        (next, context) => (args) => {
          const command = context.commandName ?? '';
          if (!metering || !WRITES.has(command)) return next(args);
          const input = args.input as Record<string, any>;
          const fn = currentFunction() ?? OUTSIDE;
          const e = entry(fn);
          const metered = (async () => {
            if (command === 'TransactWriteItemsCommand') {
              const parts = partsOf(input);
              const before = await Promise.all(parts.map((p) => read(p.table, p.key)));
              const result = await next(args);
              e.units += await transactionUnits(parts, before, fn);
              e.items += itemsOf(command, input);
              return result;
            }
            const result = await next({ ...args, input: { ...input, ReturnConsumedCapacity: 'INDEXES' } });
            const consumed = [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity].flat() as (Consumed | undefined)[];
            const units = consumed.reduce((n, c) => n + unitsOf(c), 0);
            if (process.env.COST_ITEMS) console.error(`${fn}\t${command}\t${JSON.stringify(input.Key ?? input.Item?.pk)}\t${units}`);
            e.units += units;
            e.items += itemsOf(command, input);
            return result;
          })();
          inFlight.add(metered);
          void metered.finally(() => inFlight.delete(metered)).catch(() => undefined);
          return metered;
        },
        { step: 'initialize', name: 'benchCapacityMeter' },
      ),
  };
  registerClientPlugin(plugin);
  onInvoke((name) => {
    if (metering) entry(name).calls++;
    return undefined;
  });
};

const meter = async (fn: () => Promise<void>): Promise<Map<string, FunctionWrites>> => {
  writes.clear();
  metering = true;
  try {
    await fn();
  } finally {
    metering = false;
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }
  return new Map(writes);
};

/** Runs `fn` with the meter on and returns what each function wrote meanwhile (writes outside functions excluded). */
export const meterFunctions = async (fn: () => Promise<void>): Promise<Map<string, FunctionWrites>> => {
  const all = await meter(fn);
  all.delete(OUTSIDE);
  return all;
};

/** Runs `fn` (code called directly, not through a function) with the meter on and returns what it wrote. */
export const meterDirect = async (fn: () => Promise<void>): Promise<FunctionWrites> =>
  (await meter(fn)).get(OUTSIDE) ?? { calls: 0, items: 0, units: 0 };

/** Runs `fn` with the meter on and returns the write units each function consumed meanwhile. */
export const meterWrites = async (fn: () => Promise<void>): Promise<Map<string, number>> =>
  new Map([...(await meterFunctions(fn))].map(([name, w]) => [name, w.units]));
