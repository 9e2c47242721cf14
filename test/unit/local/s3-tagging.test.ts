import { describe, expect, it } from 'vitest';
import { expiresAt, isExpired, parseTaggingHeader, parseTaggingXml, taggingXml } from '../../../infra/local/s3-tagging';

const codeOf = (parsed: ReturnType<typeof parseTaggingXml>) => ('refusal' in parsed ? parsed.refusal.code : undefined);

describe('object tags as S3 reads them', () => {
  it('reads a POST’s tagging document and PutObject’s header, and answers GetObjectTagging with the same set', () => {
    const xml =
      '<Tagging><TagSet><Tag><Key>parley-state</Key><Value>pending</Value></Tag><Tag><Key>a&amp;b</Key><Value>&#60;x&#62;</Value></Tag></TagSet></Tagging>';
    expect(parseTaggingXml(xml)).toEqual({ tags: { 'parley-state': 'pending', 'a&b': '<x>' } });
    expect(parseTaggingHeader('parley-state=pending&k=v%20w')).toEqual({ tags: { 'parley-state': 'pending', k: 'v w' } });
    const answered = taggingXml({ 'parley-state': 'pending', 'a&b': '<x>' });
    expect(parseTaggingXml(answered)).toEqual({ tags: { 'parley-state': 'pending', 'a&b': '<x>' } });
    expect(parseTaggingXml('<Tagging><TagSet></TagSet></Tagging>')).toEqual({ tags: {} });
  });

  it('refuses what S3 refuses: malformed XML, more than 10 tags, a key twice, an empty or too long key, a too long value', () => {
    const set = (tags: string[][]) =>
      `<Tagging><TagSet>${tags.map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`).join('')}</TagSet></Tagging>`;
    expect(codeOf(parseTaggingXml('<Tagging><Tag>'))).toBe('MalformedXML');
    expect(codeOf(parseTaggingXml('<Tagging><TagSet><Oops/></TagSet></Tagging>'))).toBe('MalformedXML');
    expect(codeOf(parseTaggingXml(set(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']))))).toBe('BadRequest');
    expect(
      codeOf(
        parseTaggingXml(
          set([
            ['k', '1'],
            ['k', '2'],
          ]),
        ),
      ),
    ).toBe('InvalidTag');
    expect(codeOf(parseTaggingXml(set([['', 'v']])))).toBe('InvalidTag');
    expect(codeOf(parseTaggingXml(set([['k'.repeat(129), 'v']])))).toBe('InvalidTag');
    expect(codeOf(parseTaggingXml(set([['k', 'v'.repeat(257)]])))).toBe('InvalidTag');
    expect(codeOf(parseTaggingHeader('k=1&k=2'))).toBe('InvalidTag');
  });
});

describe('lifecycle expiry as S3 times it', () => {
  const rule = { id: 'pending', bucket: 'b', tag: { key: 'parley-state', value: 'pending' }, days: 1 };

  it('adds the days to the creation time and rounds up to the next midnight UTC (AWS’s own example: 10:30 on the 15th + 3 days → the 19th)', () => {
    expect(new Date(expiresAt(Date.parse('2014-01-15T10:30:00Z'), 3)).toISOString()).toBe('2014-01-19T00:00:00.000Z');
    expect(new Date(expiresAt(Date.parse('2026-11-29T00:00:00Z'), 1)).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('expires only the rule’s bucket’s objects that still carry its tag, once their time has come', () => {
    const created = Date.parse('2026-11-29T10:00:00Z');
    const due = Date.parse('2026-12-01T00:00:00Z');
    const object = (bucket: string, tags: Record<string, string>) => ({ bucket, key: 'w/f', tags, createdAt: created });
    expect(isExpired(rule, object('b', { 'parley-state': 'pending' }), due)).toBe(true);
    expect(isExpired(rule, object('b', { 'parley-state': 'pending' }), due - 1)).toBe(false);
    expect(isExpired(rule, object('b', {}), due)).toBe(false);
    expect(isExpired(rule, object('b', { 'parley-state': 'ready' }), due)).toBe(false);
    expect(isExpired(rule, object('other', { 'parley-state': 'pending' }), due)).toBe(false);
  });

  it('expires by key prefix whatever the tags, and only under the prefix', () => {
    const byPrefix = { id: 'exports', bucket: 'b', prefix: 'bulk/exports/', days: 7 };
    const created = Date.parse('2026-11-29T10:00:00Z');
    const due = Date.parse('2026-12-07T00:00:00Z');
    const object = (key: string) => ({ bucket: 'b', key, tags: { 'parley-state': 'ready' }, createdAt: created });
    expect(isExpired(byPrefix, object('bulk/exports/w/e.csv'), due)).toBe(true);
    expect(isExpired(byPrefix, object('bulk/exports/w/e.csv'), due - 1)).toBe(false);
    expect(isExpired(byPrefix, object('bulk/imports/w/i.csv'), due)).toBe(false);
    expect(isExpired(byPrefix, object('w/bulk/exports/f'), due)).toBe(false);
  });
});
