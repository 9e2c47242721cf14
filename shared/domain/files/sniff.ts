import type { RejectedReason } from './file';

/** How many leading bytes the verifier reads: enough for every signature below and a text sample. */
export const SNIFF_BYTES = 4096;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const isZip = (b: Uint8Array) => startsWith(b, ZIP);
const isText = (b: Uint8Array) => {
  if (startsWith(b, [0xef, 0xbb, 0xbf])) return isText(b.subarray(3));
  if (b.some((c) => c === 0)) return false;
  try {
    // A multi-byte character cut by the sample's end is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, Math.max(0, b.length - 3)));
    return true;
  } catch {
    return false;
  }
};

/** The types the verifier knows, with what their first bytes must be. Other declared types are taken as given. */
const KNOWN: Record<string, (b: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, PNG),
  'image/jpeg': (b) => startsWith(b, JPEG),
  'image/gif': (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  'image/webp': (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
  'application/pdf': (b) => startsWith(b, ascii('%PDF-')),
  'application/zip': isZip,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': isZip,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': isZip,
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': isZip,
  'application/vnd.oasis.opendocument.text': isZip,
  'application/vnd.oasis.opendocument.spreadsheet': isZip,
  'text/plain': isText,
  'text/csv': isText,
};

/**
 * The verdict on a landed object: its size must be the declared one, and for a known type its first bytes
 * must be that type's. `sample` is the object's first bytes (at most SNIFF_BYTES), `landedSize` its full size.
 */
export const verdict = (
  declared: { size: number; contentType: string },
  landedSize: number,
  sample: Uint8Array,
): { ok: true } | { ok: false; reason: RejectedReason } => {
  if (landedSize !== declared.size) return { ok: false, reason: 'size_mismatch' };
  const check = KNOWN[declared.contentType];
  if (check && !check(sample)) return { ok: false, reason: 'type_mismatch' };
  return { ok: true };
};
