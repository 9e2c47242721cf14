import type { InitializeMiddleware, Pluggable } from '@smithy/types';
import type { SQSRecord } from 'aws-lambda';
import { currentContext } from './context';

/** The SQS message attribute that carries the id of the request that set the work off. */
const REQUEST_ID_ATTRIBUTE = 'requestId';

type Entry = { MessageAttributes?: Record<string, { DataType: string; StringValue?: string }> };

const tagged = (entry: Entry, requestId: string): Entry => ({
  ...entry,
  MessageAttributes: { ...entry.MessageAttributes, [REQUEST_ID_ATTRIBUTE]: { DataType: 'String', StringValue: requestId } },
});

const carryRequestId: InitializeMiddleware<any, any> = (next, context) => async (args) => {
  const { requestId } = currentContext();
  if (!requestId) return next(args);
  if (context.commandName === 'SendMessageCommand') return next({ ...args, input: tagged(args.input as Entry, requestId) });
  if (context.commandName === 'SendMessageBatchCommand') {
    const input = args.input as { Entries?: Entry[] };
    return next({ ...args, input: { ...input, Entries: input.Entries?.map((e) => tagged(e, requestId)) } });
  }
  return next(args);
};

/** Every message an SQS client sends carries the request id of the work that sent it, so its consumer logs under it too. */
export const requestIdOnMessages: Pluggable<any, any> = {
  applyToStack: (stack) => stack.add(carryRequestId, { step: 'initialize', name: 'parleyRequestId' }),
};

export const requestIdOf = (record: Pick<SQSRecord, 'messageAttributes'>): string | undefined =>
  record.messageAttributes?.[REQUEST_ID_ATTRIBUTE]?.stringValue;
