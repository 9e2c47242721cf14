import { AsyncLocalStorage } from 'node:async_hooks';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Pluggable } from '@smithy/types';
import { EVENT_ITEM_TYPE } from '../../shared/data/table';
import { registerClientPlugin } from '../../shared/aws/plugins';

type Item = Record<string, AttributeValue> | undefined;
interface WriteInput {
  Item?: Item;
  TransactItems?: { Put?: { Item?: Item } }[];
  RequestItems?: Record<string, { PutRequest?: { Item?: Item } }[]>;
}

const isOutboxItem = (item: Item) => item?.type?.S === EVENT_ITEM_TYPE;

/** Whether a DynamoDB call (as marshalled) puts an outbox item: a PutItem, a transaction's Put, a batch's PutRequest. */
export const putsOutboxItem = (command: string, input: WriteInput): boolean => {
  if (command === 'PutItemCommand') return isOutboxItem(input.Item);
  if (command === 'TransactWriteItemsCommand') return (input.TransactItems ?? []).some((t) => isOutboxItem(t.Put?.Item));
  if (command === 'BatchWriteItemCommand')
    return Object.values(input.RequestItems ?? {}).some((requests) => requests.some((r) => isOutboxItem(r.PutRequest?.Item)));
  return false;
};

const listeners = new Set<() => void>();
const tell = () => {
  for (const listener of listeners) listener();
};

/**
 * Tells `listener` when events were written: at the end of a function invocation that put an outbox item, or
 * as soon as a write outside any function (a test's, a seed's) has put one. The returned function stops telling it.
 */
export const onOutboxWrite = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const invocations = new AsyncLocalStorage<{ putOutbox: boolean }>();

/** Runs a function invocation, telling the listeners at its end if it put an outbox item. */
export const watchingOutbox = async <T>(fn: () => Promise<T>): Promise<T> => {
  const invocation = { putOutbox: false };
  try {
    return await invocations.run(invocation, fn);
  } finally {
    if (invocation.putOutbox) tell();
  }
};

const outboxWrites: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (putsOutboxItem(context.commandName ?? '', args.input as WriteInput)) {
          const invocation = invocations.getStore();
          if (invocation) invocation.putOutbox = true;
          else tell();
        }
        return result;
      },
      { step: 'build', name: 'parleyLocalOutboxWrites', priority: 'low' },
    );
  },
};

let installed = false;

/** Registers the outbox write watch on every AWS client created from now on (idempotent). */
export const installOutboxWrites = (): void => {
  if (installed) return;
  installed = true;
  registerClientPlugin(outboxWrites);
};
