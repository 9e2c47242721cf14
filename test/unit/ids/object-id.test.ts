import { describe, expect, it } from 'vitest';
import { OBJECT_ID, objectId } from '../../../shared/ids';

describe('objectId', () => {
  it('orders the ids one process makes within one second as it made them', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0, 500);
    const [first, second] = [objectId(now), objectId(now)];
    expect(first).toMatch(OBJECT_ID);
    expect(second > first).toBe(true);
  });

  it('orders ids of a later second after those of an earlier one, whatever the counter', () => {
    const later = objectId(Date.UTC(2026, 10, 27, 12, 0, 1));
    const earlier = objectId(Date.UTC(2026, 10, 27, 12, 0, 0));
    expect(later > earlier).toBe(true);
  });
});
