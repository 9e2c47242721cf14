import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Refused } from '../domain/refusal';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { liveTenant } from '../domain/auth/tenant';
import { admissionRefusal, type RateCategory } from '../domain/auth/rate-limit';
import type { TokenRecord } from '../domain/auth/token';
import { collect, queryAll } from './query';
import { createItem, updateItem, type Write } from './transact';
import { token, tokenBinding, tokenPointer } from './registry/requests';

const mainKey = (hash: string) => token.key({ hash });
const bindingKey = (workspaceId: string, tokenId: string) => tokenBinding.key({ tenant: liveTenant(workspaceId), id: tokenId });

const decode: (item: Record<string, unknown>) => TokenRecord = token.parse;
/** Tokens stored before the mode had one spelling hold `environment: live|test` instead of `livemode`. */
const fromItem = (item: Record<string, unknown>): TokenRecord =>
  decode(item.livemode === undefined && item.environment !== undefined ? { ...item, livemode: item.environment === 'live' } : item);

/** The writes that store a new token under its hash, with one binding per workspace it is bound to. */
export const tokenCreation = (record: TokenRecord, hash: string): Write[] => [
  createItem({ ...mainKey(hash), type: 'TOKEN', ...record }),
  createItem({ ...tokenPointer.key({ id: record._id }), type: 'TOKEN_ID', hash }),
  ...record.workspaceIds.map((workspaceId) => createItem({ ...bindingKey(workspaceId, record._id), type: 'TOKEN_BINDING', ...record })),
];

export type Admission = { found: false } | { found: true; token: TokenRecord & { hash: string }; admitted: boolean; used: number };

const withHash = (item: Record<string, unknown>) => ({ ...fromItem(item), hash: token.read('pk', item.pk).hash });

export interface AdmissionRequest {
  category: RateCategory;
  window: { start: number };
  limit: number;
  /** The workspace the request acts in: a token not bound to it is not counted (its 403 precedes the rate limit). */
  workspaceId?: string;
}

/**
 * Looks the token up and counts the request against its window for `category` in ONE conditional update,
 * so authentication and the atomic rate-limit admission cost a single round trip. The update is strongly
 * consistent, so a revocation is honoured on the very next request. Per category the token item keeps the
 * current window's start (`rlw_<c>`) and count (`rln_<c>`); the first request of a new window resets them.
 * A refused request is not counted, nor one for a workspace the token is not bound to, so concurrent
 * callers never push the count past the limit.
 */
export const admitRequest = async (hash: string, req: AdmissionRequest): Promise<Admission> => {
  const names = { '#w': `rlw_${req.category}`, '#n': `rln_${req.category}`, ...(req.workspaceId ? { '#ws': 'workspaceIds' } : {}) };
  const bound = req.workspaceId ? ' AND contains(#ws, :ws)' : '';
  // The window this request counts in; a later one already stored (another container's clock ran ahead
  // across the boundary) is adopted rather than fought over.
  let start = req.window.start;
  const update = (expression: string, condition: string) =>
    dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: mainKey(hash),
        UpdateExpression: expression,
        ConditionExpression: `attribute_exists(pk)${bound} AND ${condition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':w': start,
          ':one': 1,
          ...(expression.startsWith('ADD') ? { ':limit': req.limit } : {}),
          ...(req.workspaceId ? { ':ws': req.workspaceId } : {}),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  const attempt = async (expression: string, condition: string): Promise<Admission | 'open' | 'retry'> => {
    try {
      const { Attributes } = await update(expression, condition);
      return { found: true, token: withHash(Attributes!), admitted: true, used: Number(Attributes![names['#n']]) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (!error.Item) return { found: false };
      const old = unmarshall(error.Item);
      const token = withHash(old);
      const refusal = admissionRefusal(
        { window: old[names['#w']], count: old[names['#n']], bound: !req.workspaceId || token.workspaceIds.includes(req.workspaceId) },
        start,
        req.limit,
      );
      if (refusal.kind === 'count-in') {
        start = refusal.start;
        return 'retry';
      }
      if (refusal.kind === 'open-window') return 'open';
      return { found: true, token, admitted: false, used: refusal.used };
    }
  };
  for (;;) {
    const counted = await attempt('ADD #n :one', '#w = :w AND #n < :limit');
    if (counted === 'retry') continue;
    if (counted !== 'open') return counted;
    // No window for this period yet: open it (another request may have opened it first: count against it).
    const opened = await attempt('SET #w = :w, #n = :one', '(attribute_not_exists(#w) OR #w < :w)');
    if (opened !== 'open' && opened !== 'retry') return opened;
  }
};

/** The token and its usage in the current window, read without counting (for a request refused before admission). */
export const findToken = async (hash: string, req: Omit<AdmissionRequest, 'limit' | 'workspaceId'>): Promise<Admission> => {
  const Item = await consistentGet(mainKey(hash));
  if (!Item) return { found: false };
  const used = Item[`rlw_${req.category}`] === req.window.start ? Number(Item[`rln_${req.category}`] ?? 0) : 0;
  return { found: true, token: withHash(Item), admitted: false, used };
};

export const listTokens = async (workspaceId: string): Promise<TokenRecord[]> =>
  (
    await collect(queryAll({ pk: tokenBinding.build('pk', { tenant: liveTenant(workspaceId) }), skPrefix: tokenBinding.prefix('sk', {}) }))
  ).map(fromItem);

const consistentGet = async (key: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

/** The token item by id: through its pointer, or for a token made before pointers, its index entry. */
const tokenItem = async (tokenId: string) => {
  const pointer = await consistentGet(tokenPointer.key({ id: tokenId }));
  if (pointer) return consistentGet(mainKey(tokenPointer.parse(pointer).hash));
  return (await collect(queryAll({ index: 'gsi1', pk: token.build('gsi1pk', { id: tokenId }) })))[0];
};

/** A token by its id (never its hash or secret), or undefined. */
export const getToken = async (tokenId: string): Promise<TokenRecord | undefined> => {
  const item = await tokenItem(tokenId);
  return item && fromItem(item);
};

/** The token found by its id, as stored under its hash (for revoking it), or undefined. */
export const storedToken = async (tokenId: string): Promise<{ record: TokenRecord; hash: string } | undefined> => {
  const item = await tokenItem(tokenId);
  return item && { record: fromItem(item), hash: token.read('pk', item.pk).hash };
};

/** The writes that stamp `revokedAt` on the token and each of its bindings; refused when it was revoked already. */
export const tokenRevocation = (stored: { record: TokenRecord; hash: string }, revokedAt: string): Write[] => {
  const setRevoked = {
    values: { ':r': revokedAt },
    condition: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
    onFail: () => new Refused('token_already_revoked', 'Token is already revoked'),
  };
  return [
    updateItem(mainKey(stored.hash), 'SET revokedAt = :r', setRevoked),
    ...stored.record.workspaceIds.map((workspaceId) =>
      updateItem(bindingKey(workspaceId, stored.record._id), 'SET revokedAt = :r', setRevoked),
    ),
  ];
};
