import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from './outbox';
import { ConflictError, NotFoundError } from '../domain/errors';
import {
  generateToken,
  hashToken,
  visiblePrefix,
  type TokenEnvironment,
  type TokenRecord,
} from '../domain/auth/token';
import { collect, queryAll } from './query';
import { wsKey } from './table';
import { createItem, transact, updateItem } from './transact';

const mainKey = (hash: string) => ({ pk: `TOKEN#${hash}`, sk: 'TOKEN' });
const bindingKey = (workspaceId: string, tokenId: string) => ({ pk: wsKey(workspaceId), sk: `TOKEN#${tokenId}` });

const fromItem = (item: Record<string, unknown>): TokenRecord => {
  const { _id, name, prefix, environment, scopes, workspaceIds, createdAt, expiresAt, revokedAt } =
    item as unknown as TokenRecord;
  return { _id, name, prefix, environment, scopes, workspaceIds, createdAt, expiresAt, revokedAt };
};

/** The public view of a token: never the hash, never the secret. */
const tokenEventData = (t: TokenRecord) => ({ token: fromItem(t as unknown as Record<string, unknown>) });

export interface NewToken {
  name: string;
  scopes: string[];
  workspaceIds: string[];
  environment: TokenEnvironment;
  expiresAt?: string;
}

/** Creates a token and returns its full value, which is never stored or shown again. */
export const createToken = async (input: NewToken, now = new Date()): Promise<{ token: string; record: TokenRecord }> => {
  const token = generateToken(input.environment);
  const hash = hashToken(token);
  const record: TokenRecord = {
    _id: objectId(now.getTime()),
    name: input.name,
    prefix: visiblePrefix(token),
    environment: input.environment,
    scopes: [...new Set(input.scopes)],
    workspaceIds: [...new Set(input.workspaceIds)],
    createdAt: now.toISOString(),
    expiresAt: input.expiresAt,
  };
  await transact([
    createItem({ ...mainKey(hash), type: 'TOKEN', gsi1pk: `TOKENID#${record._id}`, gsi1sk: 'TOKEN', ...record }),
    ...record.workspaceIds.flatMap((ws) => [
      createItem({ ...bindingKey(ws, record._id), type: 'TOKEN_BINDING', ...record }),
      outboxItem(buildEnvelope('auth.token.created', ws, tokenEventData(record), { now })),
    ]),
  ]);
  return { token, record };
};

export type Admission =
  | { found: false }
  | { found: true; token: TokenRecord & { hash: string }; admitted: boolean; used: number };

const withHash = (item: Record<string, unknown>) => ({ ...fromItem(item), hash: (item.pk as string).slice('TOKEN#'.length) });

/**
 * Looks the token up and counts the request against its window for `category` in ONE conditional update,
 * so authentication and the atomic rate-limit admission cost a single round trip. The update is strongly
 * consistent, so a revocation is honoured on the very next request. Per category the token item keeps the
 * current window's start (`rlw_<c>`) and count (`rln_<c>`); the first request of a new window resets them.
 * A refused request is not counted, so concurrent callers never push the count past the limit.
 */
export const admitRequest = async (
  hash: string,
  category: string,
  window: { start: number },
  limit: number,
): Promise<Admission> => {
  const names = { '#w': `rlw_${category}`, '#n': `rln_${category}` };
  // The window this request counts in; a later one already stored (another container's clock ran ahead
  // across the boundary) is adopted rather than fought over.
  let start = window.start;
  const update = (expression: string, condition: string) =>
    dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: mainKey(hash),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':w': start, ':one': 1, ...(expression.startsWith('ADD') ? { ':limit': limit } : {}) },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  for (;;) {
    try {
      const { Attributes } = await update('ADD #n :one', 'attribute_exists(pk) AND #w = :w AND #n < :limit');
      return { found: true, token: withHash(Attributes!), admitted: true, used: Number(Attributes![names['#n']]) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (!error.Item) return { found: false };
      const old = unmarshall(error.Item);
      const stored = old[names['#w']];
      if (stored === start) return { found: true, token: withHash(old), admitted: false, used: limit };
      if (typeof stored === 'number' && stored > start) {
        start = stored;
        continue;
      }
    }
    try {
      const { Attributes } = await update('SET #w = :w, #n = :one', 'attribute_exists(pk) AND (attribute_not_exists(#w) OR #w < :w)');
      return { found: true, token: withHash(Attributes!), admitted: true, used: 1 };
    } catch (error) {
      // Another request opened the window first: count against it.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (!error.Item) return { found: false };
    }
  }
};

export const listTokens = async (workspaceId: string): Promise<TokenRecord[]> =>
  (await collect(queryAll({ pk: wsKey(workspaceId), skPrefix: 'TOKEN#' }))).map(fromItem);

export const revokeToken = async (tokenId: string, now = new Date()): Promise<TokenRecord> => {
  const [item] = await collect(queryAll({ index: 'gsi1', pk: `TOKENID#${tokenId}` }));
  if (!item) throw new NotFoundError('Token');
  const record = fromItem(item);
  if (record.revokedAt) throw new ConflictError('Token is already revoked');
  const revoked = { ...record, revokedAt: now.toISOString() };
  const setRevoked = {
    values: { ':r': revoked.revokedAt },
    condition: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
  };
  await transact(
    [
      updateItem({ pk: item.pk as string, sk: 'TOKEN' }, 'SET revokedAt = :r', setRevoked),
      ...record.workspaceIds.flatMap((ws) => [
        updateItem(bindingKey(ws, tokenId), 'SET revokedAt = :r', setRevoked),
        outboxItem(buildEnvelope('auth.token.revoked', ws, tokenEventData(revoked), { now })),
      ]),
    ],
    () => new ConflictError('Token is already revoked'),
  );
  return revoked;
};
