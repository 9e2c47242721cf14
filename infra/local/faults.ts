import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { isIdempotencyRecord, isImportRow, isSandboxSend } from '../../shared/data/key-conditions';

/**
 * Fault points for crash tests, off unless the environment names one. Only the local runtime reads this:
 * infra/local is never bundled into a deployed function (dependency-cruiser rule
 * `no-local-runtime-in-deployed-code`), and no CDK function environment sets it (test/infra/stacks.test.ts).
 */
export const FAULT_ENV = 'PARLEY_FAULT';

/** SIGKILLs this process the moment a transaction that commits a change together with an idempotency record returns. */
export const CRASH_AFTER_KEYED_COMMIT = 'crash-after-keyed-commit';

type Part = { Put?: { Item: Item }; Update?: { Key: Item }; Delete?: { Key: Item }; ConditionCheck?: { Key: Item } };
type Item = Record<string, { S?: string }>;

/** The primary key a transaction part names. */
const keyOf = (part: Part) => {
  const { pk, sk } = (part.Put?.Item ?? part.Update?.Key ?? part.Delete?.Key ?? part.ConditionCheck?.Key)!;
  return { pk: pk?.S, sk: sk?.S };
};
const isKeyedRecord = (part: Part) => isIdempotencyRecord(keyOf(part));

const crashAfterKeyedCommit: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const parts = ((args.input as { TransactItems?: Part[] }).TransactItems ?? []) as Part[];
        if (context.commandName === 'TransactWriteItemsCommand' && parts.some(isKeyedRecord) && !parts.every(isKeyedRecord)) {
          process.kill(process.pid, 'SIGKILL');
        }
        return result;
      },
      { step: 'build', name: 'parleyFaultCrashAfterKeyedCommit' },
    );
  },
};

/** SIGKILLs this process once `after` committed transactions have held items that `counts` picks out. */
const crashAfterCommits = (name: string, counts: (part: Part) => boolean, after: number): Pluggable<any, any> => {
  let seen = 0;
  return {
    applyToStack: (stack) => {
      stack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          const parts = ((args.input as { TransactItems?: Part[] }).TransactItems ?? []) as Part[];
          if (context.commandName !== 'TransactWriteItemsCommand') return result;
          seen += parts.filter(counts).length;
          if (seen >= after) process.kill(process.pid, 'SIGKILL');
          return result;
        },
        { step: 'build', name },
      );
    },
  };
};

/**
 * SIGKILLs this process the moment the transaction that commits the Nth send through the sandbox provider
 * returns (N from `PARLEY_FAULT_AFTER`, default 1; a transaction may commit several), before its queue
 * messages are acknowledged: other sends in flight are left claimed.
 */
export const CRASH_AFTER_SANDBOX_SEND = 'crash-after-sandbox-send';
export const FAULT_AFTER_ENV = 'PARLEY_FAULT_AFTER';

const isSandboxLogged = (part: Part) => isSandboxSend(keyOf(part));

/**
 * SIGKILLs this process the moment the transaction that commits the Nth imported row (its outcome item,
 * ROW#…) returns (N from `PARLEY_FAULT_AFTER`): mid-chunk, before the import's cursor moves past it, with
 * other rows of the chunk in flight.
 */
export const CRASH_AFTER_IMPORT_ROW = 'crash-after-import-row';

const isImportRowCreated = (part: Part) => part.Put !== undefined && isImportRow(keyOf(part));

/**
 * SIGKILLs this process the moment the Nth event frame posted to a realtime socket (PostToConnection) returns
 * (N from `PARLEY_FAULT_AFTER`, default 1): the push function dies mid-batch, with the other pushes of the
 * batch in flight and the rest of a replay unsent.
 */
export const CRASH_AFTER_SOCKET_POSTS = 'crash-after-socket-posts';

const EVENT_FRAME = '{"type":"event"';

const crashAfterSocketPosts = (after: number): Pluggable<any, any> => {
  let posts = 0;
  return {
    applyToStack: (stack) => {
      stack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          const data = (args.input as { Data?: Uint8Array }).Data;
          if (context.commandName !== 'PostToConnectionCommand' || !data) return result;
          if (Buffer.from(data).subarray(0, EVENT_FRAME.length).toString() === EVENT_FRAME && ++posts >= after)
            process.kill(process.pid, 'SIGKILL');
          return result;
        },
        { step: 'build', name: 'parleyFaultCrashAfterSocketPosts' },
      );
    },
  };
};

/** Arms the fault point named by `PARLEY_FAULT`, if any, on every AWS client created from now on. */
export const installFaults = (): void => {
  const fault = process.env[FAULT_ENV];
  if (!fault) return;
  const after = Number(process.env[FAULT_AFTER_ENV] ?? '1');
  if (fault === CRASH_AFTER_KEYED_COMMIT) registerClientPlugin(crashAfterKeyedCommit);
  else if (fault === CRASH_AFTER_SANDBOX_SEND)
    registerClientPlugin(crashAfterCommits('parleyFaultCrashAfterSandboxSend', isSandboxLogged, after));
  else if (fault === CRASH_AFTER_IMPORT_ROW)
    registerClientPlugin(crashAfterCommits('parleyFaultCrashAfterImportRow', isImportRowCreated, after));
  else if (fault === CRASH_AFTER_SOCKET_POSTS) registerClientPlugin(crashAfterSocketPosts(after));
  else throw new Error(`${FAULT_ENV}=${fault} names no fault point`);
};
