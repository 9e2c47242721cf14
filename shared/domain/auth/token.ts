import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_SECRET_LENGTH = 48;
const VISIBLE_PREFIX_LENGTH = 16;
export const TOKEN_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{48}$/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 by rejection sampling: bytes ≥ 248 would bias the first 62·4 symbols. */
export const randomBase62 = (length: number, random: (n: number) => Buffer = randomBytes): string => {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
};

/** `sk_live_` for live data, `sk_test_` for the workspaces' test-mode sandbox. */
export const generateToken = (livemode: boolean, random?: (n: number) => Buffer): string =>
  (livemode ? 'sk_live_' : 'sk_test_') + randomBase62(TOKEN_SECRET_LENGTH, random);

export const visiblePrefix = (token: string): string => token.slice(0, VISIBLE_PREFIX_LENGTH);

/** Tokens are stored and looked up only by this digest. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

export interface TokenRecord {
  _id: string;
  name: string;
  prefix: string;
  /** Whether the token acts on live data (`sk_live_`) or on its workspaces' test-mode sandbox (`sk_test_`). */
  livemode: boolean;
  scopes: string[];
  workspaceIds: string[];
  createdAt: string;
  expiresAt?: string;
  revokedAt?: string;
}

/** Tokens as every list shows them: newest first (ids begin with their creation time). */
export const newestFirst = (tokens: readonly TokenRecord[]): TokenRecord[] => [...tokens].sort((a, b) => b._id.localeCompare(a._id));

export type TokenState = 'active' | 'revoked' | 'expired';

export const tokenState = (token: Pick<TokenRecord, 'expiresAt' | 'revokedAt'>, now: Date): TokenState => {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
};
