import { describe, expect, it } from 'vitest';
import { buildEnvelope } from '../../../shared/events/envelope';
import { MAX_PAYLOAD_BYTES, serialise } from '../../../shared/events/payload';

const conversation = { _id: 'a'.repeat(24), subject: 'Hello' };

describe('event payloads', () => {
  it('are the envelope as JSON, unchanged, up to 256 KB', () => {
    const envelope = buildEnvelope('inbox.conversation.updated', 'b'.repeat(24), { conversation }, { changes: { subject: ['Hi', 'Hello'] } });
    expect(serialise(envelope)).toBe(JSON.stringify(envelope));
  });

  it('over 256 KB carry each entity as its id and API link, without changes, marked truncated', () => {
    const big = { ...conversation, notes: 'x'.repeat(MAX_PAYLOAD_BYTES) };
    const message = { _id: 'c'.repeat(24), content: 'y'.repeat(1000) };
    const envelope = buildEnvelope('inbox.message.received', 'b'.repeat(24), { message, conversation: big }, { changes: { notes: ['', big.notes] } });
    const body = serialise(envelope);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(JSON.parse(body)).toEqual({
      eventId: envelope.eventId,
      eventType: 'inbox.message.received',
      workspaceId: 'b'.repeat(24),
      occurredAt: envelope.occurredAt,
      apiVersion: 'v1',
      data: {
        message: { _id: 'c'.repeat(24) },
        conversation: { _id: conversation._id, link: `/api/v1/inbox/conversations/${conversation._id}` },
      },
      truncated: true,
    });
  });
});
