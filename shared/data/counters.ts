import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { tenantPk } from './keys';
import { updateItem, type Write } from './transact';

/** Exact per-workspace counts, kept in the same transaction as the writes they count. */
const counterKey = (workspaceId: string, name: string) => ({ pk: tenantPk(workspaceId), sk: `COUNTER#${name}` });

export const bumpCounter = (workspaceId: string, name: string, delta: number): Write =>
  updateItem(counterKey(workspaceId, name), 'ADD #n :d', { names: { '#n': 'n' }, values: { ':d': delta } });

export const readCounter = async (workspaceId: string, name: string): Promise<number> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: counterKey(workspaceId, name), ConsistentRead: true }),
  );
  return typeof Item?.n === 'number' ? Item.n : 0;
};
