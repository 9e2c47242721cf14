import { randomBytes } from 'node:crypto';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { hashToken, type TokenRecord } from '../domain/auth/token';
import { storeTicket } from '../data/realtime';
import type { Unit } from '../data/unit';

/** A ticket opens one socket within this time, or never. */
const TICKET_TTL_SECONDS = 60;

/**
 * A single-use ticket for the realtime socket, bound to the calling token, the workspace and the mode. Only its
 * hash is stored; the API token itself never travels in the socket's URL.
 */
export const createTicket = async (unit: Unit, tenant: Tenant, token: TokenRecord, now: Date) => {
  const ticket = `rt_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + TICKET_TTL_SECONDS * 1000).toISOString();
  await storeTicket(unit, hashToken(ticket), { tenant, tokenId: token._id, scopes: token.scopes, expiresAt });
  return { ticket, url: `${config().REALTIME_URL}?ticket=${encodeURIComponent(ticket)}`, expiresAt };
};
