import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { startStack, type LocalStack, type StackOptions } from '../../infra/local/stack';

/** A whole local stack for one test file: its own table in the shared DynamoDB Local, its own SQS. */
export const startTestStack = (opts: StackOptions = {}): Promise<LocalStack> =>
  startStack({ dynamoEndpoint: inject('dynamoEndpoint'), tableName: `t-${randomUUID()}`, ...opts });
