import { describe, expect, it } from 'vitest';
import { eventFrame, parseMessage } from '../../../shared/domain/realtime/protocol';

const LIMIT = 128 * 1024;
const ID = '6b0bfb9d3953f43a993615a1';
/** A stored event payload whose frame is exactly `bytes` long. */
const payloadFor = (bytes: number) => {
  const frameOverhead = '{"type":"event","event":{"data":""}}'.length;
  return JSON.stringify({ data: 'x'.repeat(bytes - frameOverhead) });
};

describe('event frames', () => {
  it("carry the event's stored bytes whole up to API Gateway's 128 KB message limit", () => {
    const payload = payloadFor(LIMIT);
    const frame = eventFrame(ID, payload);
    expect(Buffer.byteLength(frame)).toBe(LIMIT);
    expect(JSON.parse(frame)).toEqual({ type: 'event', event: JSON.parse(payload) });
  });

  it('past it carry the event id alone, marked truncated, to be read with GET /events/{id}', () => {
    expect(JSON.parse(eventFrame(ID, payloadFor(LIMIT + 1)))).toEqual({ type: 'event', eventId: ID, truncated: true });
    // Multi-byte characters count as the bytes they take, not as characters.
    const wide = JSON.stringify({ data: 'é'.repeat(LIMIT / 2) });
    expect(JSON.parse(eventFrame(ID, wide))).toEqual({ type: 'event', eventId: ID, truncated: true });
  });
});

describe('client messages', () => {
  const isPattern = (p: string) => p === '*' || p === 'inbox.*';
  const oldest = '600000000000000000000000';

  it('answers a bad message with an error frame naming what is wrong', () => {
    expect(parseMessage('not json', isPattern, oldest)).toMatchObject({ type: 'error', code: 'BAD_MESSAGE' });
    expect(parseMessage('{"action":"subscribe","events":["nope.*"]}', isPattern, oldest)).toMatchObject({
      code: 'BAD_MESSAGE',
      message: 'events: "nope.*" is no catalog event type or wildcard',
    });
    expect(parseMessage(`{"action":"subscribe","events":["*"],"since":"${'5'.repeat(24)}"}`, isPattern, oldest)).toMatchObject({
      code: 'BAD_MESSAGE',
      message: 'since: older than the 30-day events log; list GET /events first',
    });
  });

  it('passes a subscription and a ping', () => {
    expect(parseMessage(`{"action":"subscribe","events":["inbox.*"],"since":"${ID}"}`, isPattern, oldest)).toEqual({
      action: 'subscribe',
      events: ['inbox.*'],
      since: ID,
    });
    expect(parseMessage('{"action":"ping"}', isPattern, oldest)).toEqual({ action: 'ping' });
  });
});
