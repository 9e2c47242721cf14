import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { eventEntryBytes, LIMITS } from '../../../infra/local/aws-limits';
import { outboxItem } from '../../../shared/data/outbox';
import { liveTenant, testTenant } from '../../../shared/domain/auth/tenant';
import { buildEnvelope } from '../../../shared/events/envelope';
import { MAX_PAYLOAD_BYTES, serialise } from '../../../shared/events/payload';
import { packText, unpackText } from '../../../shared/packed-text';

const conversation = { _id: 'a'.repeat(24), subject: 'Hello' };

describe('event payloads', () => {
  it('are the envelope as JSON, unchanged, up to 256 KB', () => {
    const envelope = buildEnvelope(
      'inbox.conversation.updated',
      liveTenant('b'.repeat(24)),
      { conversation },
      { changes: { subject: ['Hi', 'Hello'] } },
    );
    expect(serialise(envelope)).toBe(JSON.stringify(envelope));
  });

  it('over 256 KB carry each entity as its id and API link, without changes, marked truncated', () => {
    const big = { ...conversation, notes: 'x'.repeat(MAX_PAYLOAD_BYTES) };
    const message = { _id: 'c'.repeat(24), content: 'y'.repeat(1000) };
    const envelope = buildEnvelope(
      'inbox.message.received',
      testTenant('b'.repeat(24)),
      { message, conversation: big },
      { changes: { notes: ['', big.notes] } },
    );
    const body = serialise(envelope);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(JSON.parse(body)).toEqual({
      eventId: envelope.eventId,
      eventType: 'inbox.message.received',
      workspaceId: 'b'.repeat(24),
      livemode: false,
      occurredAt: envelope.occurredAt,
      apiVersion: 'v1',
      data: {
        message: { _id: 'c'.repeat(24) },
        conversation: { _id: conversation._id, link: `/api/v1/inbox/conversations/${conversation._id}` },
      },
      truncated: true,
    });
  });

  it('shrink when the body fits 256 KB but its escaped copy in the stream record would not fit an EventBridge entry', () => {
    // 150 KB of quotes: 150 KB as sent, about 300 KB once escaped inside the stream record the pipe forwards.
    const quoted = { ...conversation, notes: '"'.repeat(150 * 1024) };
    const envelope = buildEnvelope('inbox.conversation.updated', liveTenant('b'.repeat(24)), { conversation: quoted });
    const item = outboxItem(envelope).item.Put!.Item!;
    const record = {
      eventID: 'f'.repeat(32),
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-west-1',
      dynamodb: {
        ApproximateCreationDateTime: 1_800_000_000,
        Keys: marshall({ pk: item.pk, sk: item.sk }),
        NewImage: marshall(item),
        SequenceNumber: '1'.repeat(40),
        SizeBytes: 300_000,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: `arn:aws:dynamodb:eu-west-1:123456789012:table/Parley-prod-Data-Table-ABCDEFGHIJKL/stream/2026-11-22T00:00:00.000`,
    };
    expect(JSON.parse(item.payload as string).truncated).toBe(true);
    expect(eventEntryBytes({ source: 'parley.outbox', 'detail-type': 'DomainEvent', detail: record })).toBeLessThanOrEqual(
      LIMITS.eventBridgeEntryBytes,
    );
  });

  it('are stored compressed from 640 bytes on, under the 1 KB write unit, and read back byte for byte (plain ones as before)', () => {
    const message = {
      _id: 'c'.repeat(24),
      content: 'Has my order shipped? I ordered it last week.',
      author: { type: 'customer', id: 'd'.repeat(24) },
    };
    const envelope = buildEnvelope('inbox.message.received', liveTenant('b'.repeat(24)), {
      message,
      conversation: { ...conversation, messageCount: 3 },
    });
    const body = `${serialise(envelope)} ${'é'.repeat(400)}`;
    const stored = packText('payload', body);
    expect(stored).not.toHaveProperty('payload');
    expect(Buffer.byteLength((stored as { payloadZ: string }).payloadZ)).toBeLessThan(Buffer.byteLength(body) / 2);
    expect(unpackText(stored, 'payload')).toBe(body);
    const small = serialise(buildEnvelope('inbox.conversation.updated', liveTenant('b'.repeat(24)), { conversation }));
    expect(packText('payload', small)).toEqual({ payload: small });
    expect(unpackText({ payload: body }, 'payload')).toBe(body);
    expect(unpackText(undefined, 'payload')).toBeUndefined();
  });
});
