import type { Pluggable } from '@smithy/types';
import { currentFunction } from '../../infra/local/aws-guard';
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

const units = new Map<string, number>();
let metering = false;

/**
 * Write capacity units per function, from the ConsumedCapacity DynamoDB Local reports for every write
 * (the table's units doubled for transactions, as DynamoDB bills them; index writes counted once). Register before any client is created.
 */
export const registerCapacityMeter = (): void => {
  const plugin: Pluggable<any, any> = {
    applyToStack: (stack) =>
      stack.add(
        (next, context) => async (args) => {
          const command = context.commandName ?? '';
          if (!metering || !WRITES.has(command)) return next(args);
          const result = await next({ ...args, input: { ...(args.input as object), ReturnConsumedCapacity: 'INDEXES' } });
          const consumed = [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity].flat() as (Consumed | undefined)[];
          const factor = command === 'TransactWriteItemsCommand' ? TRANSACTION_FACTOR : 1;
          const name = currentFunction() ?? 'outside functions';
          units.set(name, (units.get(name) ?? 0) + consumed.reduce((n, c) => n + unitsOf(c, factor), 0));
          return result;
        },
        { step: 'initialize', name: 'benchCapacityMeter' },
      ),
  };
  registerClientPlugin(plugin);
};

/** Runs `fn` with the meter on and returns the write units each function consumed meanwhile. */
export const meterWrites = async (fn: () => Promise<void>): Promise<Map<string, number>> => {
  units.clear();
  metering = true;
  try {
    await fn();
  } finally {
    metering = false;
  }
  return new Map(units);
};
