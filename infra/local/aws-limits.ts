import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * AWS service limits that the local emulators let pass (docs/contributing/testing.md). Each check returns the error AWS would
 * answer with, as `{name, message}`, or undefined when the call is within limits.
 */
export interface LimitError {
  name: string;
  message: string;
}

export const LIMITS = {
  transactItems: 100,
  itemBytes: 400 * 1024,
  batchGetKeys: 100,
  batchWriteRequests: 25,
  sqsDelaySeconds: 900,
  sqsVisibilitySeconds: 12 * 3600,
  sqsBatchEntries: 10,
  eventBridgeEntryBytes: 256 * 1024,
} as const;

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB's item size rules: names and values in UTF-8, numbers by significant digits, containers 3 bytes + 1 per element. */
const valueBytes = (v: AttributeValue): number => {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberBytes(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS) return v.SS.reduce((n, s) => n + utf8(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + numberBytes(s), 0);
  if (v.BS) return v.BS.reduce((n, b) => n + b.length, 0);
  if (v.L) return 3 + v.L.reduce((n, e) => n + 1 + valueBytes(e), 0);
  if (v.M) return 3 + Object.entries(v.M).reduce((n, [k, e]) => n + 1 + utf8(k) + valueBytes(e), 0);
  return 0;
};

const numberBytes = (n: string): number => {
  const digits = n.replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
};

const itemBytes = (item: Record<string, AttributeValue>): number =>
  Object.entries(item).reduce((n, [name, value]) => n + utf8(name) + valueBytes(value), 0);

const validation = (message: string): LimitError => ({ name: 'ValidationException', message });

const tooLarge = (item: Record<string, AttributeValue> | undefined) =>
  item && itemBytes(item) > LIMITS.itemBytes ? validation('Item size has exceeded the maximum allowed size') : undefined;

type Input = Record<string, any>;

export const dynamoLimitError = (command: string, input: Input): LimitError | undefined => {
  switch (command) {
    case 'TransactWriteItems': {
      const items = (input.TransactItems ?? []) as Input[];
      if (items.length > LIMITS.transactItems) {
        return validation(
          `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${LIMITS.transactItems}`,
        );
      }
      for (const part of items) {
        const error = tooLarge(part.Put?.Item);
        if (error) return error;
      }
      return undefined;
    }
    case 'PutItem':
      return tooLarge(input.Item);
    case 'BatchGetItem': {
      const keys = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>).reduce(
        (n, r) => n + (r.Keys?.length ?? 0),
        0,
      );
      return keys > LIMITS.batchGetKeys ? validation('Too many items requested for the BatchGetItem call') : undefined;
    }
    case 'BatchWriteItem': {
      const requests = Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).reduce((n, r) => n + r.length, 0);
      return requests > LIMITS.batchWriteRequests
        ? validation(
            `1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: Member must have length less than or equal to ${LIMITS.batchWriteRequests}`,
          )
        : undefined;
    }
    default:
      return undefined;
  }
};

const invalidValue = (parameter: string, value: unknown, max: number): LimitError => ({
  name: 'InvalidParameterValue',
  message: `Value ${String(value)} for parameter ${parameter} is invalid. Reason: Must be >= 0 and <= ${max}.`,
});

const outOf = (value: unknown, max: number) => typeof value === 'number' && (value < 0 || value > max);

export const sqsLimitError = (command: string, input: Input): LimitError | undefined => {
  const entries = (input.Entries ?? []) as Input[];
  if (command.endsWith('Batch') && entries.length > LIMITS.sqsBatchEntries) {
    return {
      name: 'TooManyEntriesInBatchRequest',
      message: `Maximum number of entries per request are ${LIMITS.sqsBatchEntries}. You have sent ${entries.length}.`,
    };
  }
  const delays =
    command === 'SendMessage' ? [input.DelaySeconds] : command === 'SendMessageBatch' ? entries.map((e) => e.DelaySeconds) : [];
  const badDelay = delays.find((d) => outOf(d, LIMITS.sqsDelaySeconds));
  if (badDelay !== undefined) return invalidValue('DelaySeconds', badDelay, LIMITS.sqsDelaySeconds);
  const visibilities =
    command === 'ChangeMessageVisibility' || command === 'ReceiveMessage'
      ? [input.VisibilityTimeout]
      : command === 'ChangeMessageVisibilityBatch'
        ? entries.map((e) => e.VisibilityTimeout)
        : [];
  const badVisibility = visibilities.find((v) => outOf(v, LIMITS.sqsVisibilitySeconds));
  return badVisibility !== undefined ? invalidValue('VisibilityTimeout', badVisibility, LIMITS.sqsVisibilitySeconds) : undefined;
};

/** EventBridge's PutEvents entry size: Time (14 bytes), Source, DetailType, Detail and Resources, in UTF-8. */
export const eventEntryBytes = (entry: { source: string; 'detail-type': string; detail: unknown; resources?: readonly string[] }): number =>
  14 +
  utf8(entry.source) +
  utf8(entry['detail-type']) +
  utf8(JSON.stringify(entry.detail)) +
  (entry.resources ?? []).reduce((n, r) => n + utf8(r), 0);
