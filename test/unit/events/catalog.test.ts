import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { eventCatalog, pingEvent } from '../../../shared/events/catalog';
import type { EventType } from '../../../shared/events/types';
import type { ConversationEvent } from '../../../shared/domain/inbox/conversation';
import type { taggingEventType } from '../../../shared/domain/tags/tagging';

const CATALOG_FILES = [join('shared', 'events', 'types.ts'), join('shared', 'events', 'catalog.ts')];
const listed = [...eventCatalog, pingEvent];
const categories = [...new Set(listed.map((e) => e.type.split('.')[0]))];

/** Every literal event name in the application code (the catalog itself, and declarations generated from it, aside). */
const namesInSource = (): Map<string, string> => {
  const name = new RegExp(`['"\`]((?:${categories.join('|')})\\.[a-z]+\\.[a-z_]+)['"\`]`, 'g');
  const found = new Map<string, string>();
  for (const root of ['shared', 'functions', 'infra', 'packages']) {
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      const path = join(root, file);
      if (!path.endsWith('.ts') || path.endsWith('.d.ts') || CATALOG_FILES.includes(path)) continue;
      for (const [, type] of readFileSync(path, 'utf8').matchAll(name)) found.set(type!, path);
    }
  }
  return found;
};

describe('the event catalog', () => {
  it('lists every event name the code emits as available', () => {
    const emitted = namesInSource();
    expect(emitted.size).toBeGreaterThan(10);
    const status = new Map(listed.map((e) => [e.type as string, e.status]));
    for (const [type, file] of emitted) expect(status.get(type), `${type} in ${file}`).toBe('available');
  });

  it('admits composed event names only when they are available', () => {
    expectTypeOf<`inbox.conversation.${ConversationEvent}`>().toExtend<EventType>();
    expectTypeOf<ReturnType<typeof taggingEventType>>().toExtend<EventType>();
    expectTypeOf<'scheduling.booking.teleported'>().not.toExtend<EventType>();
  });

  it('names each type once, as <category>.<entity>.<action>, with a description and its entity in `data`', () => {
    const types = listed.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    for (const e of eventCatalog) {
      expect(e.type).toMatch(/^[a-z]+\.[a-z]+\.[a-z_]+$/);
      expect(e.description).not.toBe('');
      expect(z.toJSONSchema(e.data).required, e.type).toContain(e.type.split('.')[1]);
    }
  });
});
