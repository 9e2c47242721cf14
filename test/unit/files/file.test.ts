import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentDisposition, CreateFile, parseObjectKey, objectKey, sanitizeName } from '../../../shared/domain/files/file';
import { verdict } from '../../../shared/domain/files/sniff';
import { tenantOf } from '../../../shared/domain/auth/tenant';

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (s: string) => new TextEncoder().encode(s);

describe('file names', () => {
  it('keep the last path segment and never a control character, slash, backslash or quote', () => {
    expect(sanitizeName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(sanitizeName('a\r\nSet-Cookie: x".txt')).toBe('a__Set-Cookie: x_.txt');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (raw) => {
        const name = sanitizeName(raw);
        expect([...name].filter((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || '/\\"'.includes(c))).toEqual([]);
        expect(attachmentDisposition(raw)).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[\x21-\x7e]*$/);
      }),
    );
  });

  it('a name that is only a path or dots is refused; sizes are 1 byte to 25 MiB', () => {
    expect(CreateFile.safeParse({ name: 'dir/', contentType: 'text/plain', size: 1 }).success).toBe(false);
    expect(CreateFile.safeParse({ name: '..', contentType: 'text/plain', size: 1 }).success).toBe(false);
    expect(CreateFile.safeParse({ name: 'a', contentType: 'text/plain', size: 0 }).success).toBe(false);
    expect(CreateFile.safeParse({ name: 'a', contentType: 'Text/Plain', size: 25 * 1024 * 1024 }).data?.contentType).toBe('text/plain');
  });
});

describe('object keys', () => {
  it('are <tenant>/<fileId> and read back, test mode included; anything else is not a file', () => {
    const id = '66a2035e7d1c4f2a9b3e5d30';
    for (const livemode of [true, false]) {
      const tenant = tenantOf('66a1f0c2b9e84d7a3c5e1f20', livemode);
      expect(parseObjectKey(objectKey(tenant, id))).toEqual({ tenant, fileId: id });
    }
    expect(parseObjectKey(`66a1f0c2b9e84d7a3c5e1f20/../${id}`)).toBeUndefined();
    expect(parseObjectKey('uploads/a.png')).toBeUndefined();
  });
});

describe('the verifier’s verdict', () => {
  const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0);
  it('checks the landed size first, then the first bytes of the types it knows', () => {
    expect(verdict({ size: 10, contentType: 'image/png' }, 11, png)).toEqual({ ok: false, reason: 'size_mismatch' });
    expect(verdict({ size: 10, contentType: 'image/png' }, 10, png)).toEqual({ ok: true });
    expect(verdict({ size: 10, contentType: 'application/pdf' }, 10, png)).toEqual({ ok: false, reason: 'type_mismatch' });
    expect(verdict({ size: 8, contentType: 'application/pdf' }, 8, text('%PDF-1.7'))).toEqual({ ok: true });
    expect(verdict({ size: 6, contentType: 'image/gif' }, 6, text('GIF89a'))).toEqual({ ok: true });
    expect(verdict({ size: 3, contentType: 'image/jpeg' }, 3, bytes(0xff, 0xd8, 0xff))).toEqual({ ok: true });
    expect(verdict({ size: 12, contentType: 'image/webp' }, 12, text('RIFF\0\0\0\0WEBP'))).toEqual({ ok: true });
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(verdict({ size: 4, contentType: docx }, 4, bytes(0x50, 0x4b, 3, 4))).toEqual({ ok: true });
    expect(verdict({ size: 4, contentType: docx }, 4, text('%PDF'))).toEqual({ ok: false, reason: 'type_mismatch' });
    expect(verdict({ size: 3, contentType: 'application/x-anything' }, 3, bytes(0, 1, 2))).toEqual({ ok: true });
  });

  it('takes UTF-8 (a multi-byte character cut at the sample’s end included) as text, and refuses NULs or invalid bytes', () => {
    expect(verdict({ size: 5, contentType: 'text/plain' }, 5, text('héllo'))).toEqual({ ok: true });
    const cut = text('ab€').subarray(0, 4);
    expect(verdict({ size: 100, contentType: 'text/plain' }, 100, cut)).toEqual({ ok: true });
    expect(verdict({ size: 3, contentType: 'text/plain' }, 3, bytes(0x61, 0, 0x62))).toEqual({ ok: false, reason: 'type_mismatch' });
    expect(verdict({ size: 6, contentType: 'text/csv' }, 6, bytes(0x61, 0xff, 0xfe, 0x61, 0x61, 0x61))).toEqual({
      ok: false,
      reason: 'type_mismatch',
    });
  });
});
