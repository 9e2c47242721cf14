import type { Tenant } from '../../../shared/domain/auth/tenant';
import type { Tag } from '../../../shared/domain/tags/tag';
import { envelopeTenant, type EventEnvelope } from '../../../shared/events/envelope';
import { serialise } from '../../../shared/events/payload';

/**
 * The tags area's storage, as the house registry and each candidate library write it: the same items, keys
 * and conditions, one TransactWriteItems per change, the tagging one carrying its outbox event.
 */
export interface TagStore {
  /** The tag, its name's guard (refused when taken) and the workspace's tag count, in one transaction. */
  create(tenant: Tenant, tag: Tag): Promise<void>;
  /** The tag by id, strongly consistent, parsed. */
  get(tenant: Tenant, id: string): Promise<Tag | undefined>;
  /** The first `limit` tags by name. */
  page(tenant: Tenant, limit: number): Promise<Tag[]>;
  /**
   * Attaches a live tag to an untagged customer: its tag set (on condition it is still empty), the tag link,
   * the tag's liveness check, the tag's customer count and the outbox event, in one transaction.
   */
  tagCustomer(tenant: Tenant, customerId: string, tagId: string, event: EventEnvelope): Promise<void>;
}

/** A tag's own fields, without what a library stores beside them. */
export const toTag = ({ _id, name, color, description, createdAt, updatedAt }: Tag): Tag => ({
  _id,
  name,
  color,
  description,
  createdAt,
  updatedAt,
});

const OUTBOX_TTL_SECONDS = 30 * 24 * 3600;

/** The outbox item's attributes, as `outboxItem` (shared/data/outbox.ts) writes them. */
export const outboxFields = (envelope: EventEnvelope) => ({
  tenant: envelopeTenant(envelope),
  eventId: envelope.eventId,
  type: 'EVENT',
  eventType: envelope.eventType,
  workspaceId: envelope.workspaceId,
  payload: serialise(envelope),
  ttl: Math.floor(Date.parse(envelope.occurredAt) / 1000) + OUTBOX_TTL_SECONDS,
});
