import { describe, expect, it } from 'vitest';
import { passagesOf, plainText, PASSAGE_TARGET_CHARS } from '../../../shared/domain/ai/passages';
import { decide, extractiveReply, handoffMatches } from '../../../shared/domain/ai/reply';

const passage = (confidence: number) => ({ articleId: 'a', title: 't', text: 'Click Reset.', locale: 'en', score: 3, confidence });

describe('passages', () => {
  it('reduce markdown to text and never split a paragraph', () => {
    expect(plainText('# Title\n\nSee [the guide](https://x.y) and **bold** `code`.')).toBe('Title\n\nSee the guide and bold code.');
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40).trim()}.`);
    const passages = passagesOf(paragraphs.join('\n\n'));
    expect(passages.join('\n').split('\n')).toEqual(paragraphs);
    for (const p of passages) expect(p.length).toBeLessThanOrEqual(PASSAGE_TARGET_CHARS + 250);
    expect(passages.length).toBeGreaterThan(1);
  });
});

describe('replies and handoff', () => {
  it('frames the best passage by tone, in English only', async () => {
    expect(await extractiveReply.reply({ question: 'q', passages: [passage(1)], settings: { tone: 'formal', language: null } })).toBe(
      'Hello, Click Reset. Kind regards.',
    );
    expect(await extractiveReply.reply({ question: 'q', passages: [passage(1)], settings: { tone: 'friendly', language: 'de' } })).toBe(
      'Click Reset.',
    );
    expect(await extractiveReply.reply({ question: 'q', passages: [], settings: { tone: 'neutral', language: null } })).toBeNull();
  });

  it('hands off on whole-word keywords in any case, on low confidence and on no match', () => {
    expect(handoffMatches('Talk to a HUMAN please', ['human', 'agent'])).toEqual(['human']);
    expect(handoffMatches('inhuman agents', ['human', 'agent'])).toEqual([]);
    expect(handoffMatches('a real person, now', ['real person'])).toEqual(['real person']);
    const settings = { handoffKeywords: ['human'], confidenceThreshold: 0.7 };
    expect(decide('reset', passage(0.7), settings)).toEqual({ action: 'reply' });
    expect(decide('reset', passage(0.69), settings)).toEqual({ action: 'handoff', reason: 'low_confidence' });
    expect(decide('reset', undefined, settings)).toEqual({ action: 'handoff', reason: 'no_match' });
    expect(decide('human reset', passage(1), settings)).toEqual({ action: 'handoff', reason: 'keyword', keywords: ['human'] });
  });
});
