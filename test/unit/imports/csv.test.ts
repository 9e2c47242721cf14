import { describe, expect, it } from 'vitest';
import { csvRecords, UnreadableCsv } from '../../../shared/imports/csv';
import { customerRow, layoutOf, leadRow } from '../../../shared/domain/imports/columns';

/** The bytes in pieces of `size`, as an S3 stream hands them over (a piece may split a character). */
async function* pieces(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

const records = async (bytes: Uint8Array, size = 3) => {
  const out = [];
  for await (const r of csvRecords(pieces(bytes, size))) out.push(r);
  return out;
};

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('reading an import’s CSV', () => {
  it('parses RFC 4180 from pieces that split characters: quotes, line breaks inside them, a BOM, CRLF, empty lines; each record’s first line', async () => {
    const text = '\uFEFFname,note\r\n"Zoë ""Z""","a\r\nb\nc"\r\n\r\nplain,é\r\n';
    expect(await records(utf8(text))).toEqual([
      { line: 1, cells: ['name', 'note'] },
      { line: 2, cells: ['Zoë "Z"', 'a\r\nb\nc'] },
      { line: 6, cells: ['plain', 'é'] },
    ]);
  });

  it('refuses bytes that are not UTF-8 and a malformed CSV, naming where', async () => {
    await expect(records(Uint8Array.from([...utf8('a\nJos'), 0xe9, 0x0a]))).rejects.toThrow(UnreadableCsv);
    await expect(records(Uint8Array.from([...utf8('a\nJos'), 0xe9, 0x0a]))).rejects.toThrow(
      /not valid UTF-8 \(invalid bytes after line 2\)/,
    );
    await expect(records(utf8('a\n"open\n'))).rejects.toThrow(/Malformed CSV: .*Quote Not Closed/);
  });

  it('stops reading when its reader stops: the source is closed, not drained', async () => {
    let read = 0;
    async function* endless() {
      for (;;) {
        read++;
        yield utf8('x,y\n'.repeat(1000));
      }
    }
    for await (const r of csvRecords(endless())) if (r.line === 2) break;
    expect(read).toBeLessThan(100);
  });
});

describe('laying out an import’s columns', () => {
  it('maps headers to fields, skips null columns, and refuses unknown, repeated, missing and dangling columns', () => {
    expect(
      layoutOf('customers', ['E-mail', 'name', 'Plan', 'Notes'], { 'E-mail': 'email', Plan: 'attributes.plan', Notes: null }, 'email'),
    ).toEqual({
      fields: ['email', 'name', 'attributes.plan', null],
    });
    expect(layoutOf('customers', ['email', 'Full Name'], {}, 'email')).toEqual({
      error: expect.stringContaining('Unknown columns: "Full Name"'),
    });
    expect(layoutOf('customers', ['email', 'mail'], { mail: 'email' }, 'email')).toEqual({ error: 'More than one column fills "email"' });
    expect(layoutOf('customers', ['name'], {}, 'email')).toEqual({ error: 'No column fills "email", which every row needs' });
    expect(layoutOf('customers', ['email'], { Mail: 'email' }, 'email')).toEqual({ error: expect.stringContaining('"Mail"') });
    expect(layoutOf('leads', [''], {}, 'title')).toEqual({ error: expect.stringContaining('no header row') });
  });

  it('turns rows into the create routes’ fields, or a reason', () => {
    const fields = ['email', 'name', 'attributes.plan'];
    expect(customerRow(fields, ['a@example.com', '', 'pro'])).toEqual({ input: { email: 'a@example.com', attributes: { plan: 'pro' } } });
    expect(customerRow(fields, ['nope', 'A', ''])).toEqual({ reason: expect.stringMatching(/^email: /) });
    expect(customerRow(fields, ['a@example.com'])).toEqual({ reason: 'Expected 3 fields, found 1' });
    const lead = ['title', 'valueAmount', 'valueCurrency', 'expectedCloseDate'];
    expect(leadRow(lead, ['Deal', '1500', 'EUR', '2026-12-01'])).toEqual({
      input: { title: 'Deal', value: { amount: 1500, currency: 'EUR' }, expectedCloseDate: '2026-12-01' },
    });
    expect(leadRow(lead, ['Deal', '1.5', 'EUR', ''])).toEqual({ reason: expect.stringContaining('valueAmount') });
    expect(leadRow(lead, ['Deal', '', 'EUR', ''])).toEqual({ reason: expect.stringContaining('go together') });
  });
});
