import type { Pluggable } from '@smithy/types';
import { currentFunction } from '../../infra/local/aws-guard';
import { onInvoke } from '../../infra/local/lambda';
import { registerClientPlugin } from '../../shared/aws/plugins';

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** DynamoDB bills a transactional write twice the units of a standard one; DynamoDB Local reports standard units. */
const TRANSACTION_FACTOR = 2;

interface Consumed {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** Only the table's own units double for a transaction: index updates propagate as standard writes. */
const unitsOf = (c: Consumed | undefined, factor: number): number => {
  if (!c) return 0;
  const indexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((n, i) => n + (i.CapacityUnits ?? 0), 0);
  const table = c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - indexes;
  return factor * table + indexes;
};

/** The items one write request puts, updates or deletes (a transaction's condition checks write nothing). */
const itemsOf = (command: string, input: Record<string, any>): number => {
  if (command === 'TransactWriteItemsCommand') return (input.TransactItems ?? []).filter((t: Record<string, unknown>) => !t.ConditionCheck).length;
  if (command === 'BatchWriteItemCommand') return Object.values(input.RequestItems ?? {}).reduce((n: number, r) => n + (r as unknown[]).length, 0);
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

const entry = (name: string): FunctionWrites => {
  let e = writes.get(name);
  if (!e) writes.set(name, (e = { calls: 0, items: 0, units: 0 }));
  return e;
};

/**
 * Write capacity units and items per function, from the ConsumedCapacity DynamoDB Local reports for every
 * write (the table's units doubled for transactions, as DynamoDB bills them; index writes counted once), and
 * the function's invocations. Register before any client is created.
 */
export const registerCapacityMeter = (): void => {
  const plugin: Pluggable<any, any> = {
    applyToStack: (stack) =>
      stack.add(
        (next, context) => async (args) => {
          const command = context.commandName ?? '';
          if (!metering || !WRITES.has(command)) return next(args);
          const input = args.input as Record<string, any>;
          const result = await next({ ...args, input: { ...input, ReturnConsumedCapacity: 'INDEXES' } });
          const consumed = [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity].flat() as (Consumed | undefined)[];
          const factor = command === 'TransactWriteItemsCommand' ? TRANSACTION_FACTOR : 1;
          const e = entry(currentFunction() ?? OUTSIDE);
          e.units += consumed.reduce((n, c) => n + unitsOf(c, factor), 0);
          e.items += itemsOf(command, input);
          return result;
        },
        { step: 'initialize', name: 'benchCapacityMeter' },
      ),
  };
  registerClientPlugin(plugin);
  onInvoke((name) => {
    if (metering) entry(name).calls++;
  });
};

/** Runs `fn` with the meter on and returns what each function wrote meanwhile (writes outside functions excluded). */
export const meterFunctions = async (fn: () => Promise<void>): Promise<Map<string, FunctionWrites>> => {
  writes.clear();
  metering = true;
  try {
    await fn();
  } finally {
    metering = false;
  }
  writes.delete(OUTSIDE);
  return new Map(writes);
};

/** Runs `fn` with the meter on and returns the write units each function consumed meanwhile. */
export const meterWrites = async (fn: () => Promise<void>): Promise<Map<string, number>> =>
  new Map([...(await meterFunctions(fn))].map(([name, w]) => [name, w.units]));
