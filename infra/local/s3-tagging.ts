import type { ExpiryRuleSpec } from '../../functions/wiring/types';
import type { S3Refusal } from './s3-post-policy';

/**
 * Object tags and lifecycle expiry as S3 has them, for the local S3 stand-in (fauxqs keeps no tags). Pure: the
 * stand-in keeps the tags beside each object and asks these functions what a request's tags are and when an
 * object expires.
 */
export type Tags = Record<string, string>;

/** A request's tags, or what S3 answers a tag set it refuses. */
export type Parsed = { tags: Tags } | { refusal: S3Refusal };

/** A lifecycle rule that expires a bucket's objects carrying a tag, or whose keys start with a prefix. */
export type ExpiryRule = ExpiryRuleSpec & { bucket: string };

const DAY_MS = 24 * 3600 * 1000;

const refuse = (status: number, code: string, message: string): S3Refusal => ({ status, code, message });
const malformed = (): Parsed => ({
  refusal: refuse(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema'),
});

/** S3's limits on a tag set: at most 10 tags, keys of 1 to 128 characters and unique, values of at most 256. */
const checkTags = (pairs: readonly (readonly [string, string])[]): Parsed => {
  if (pairs.length > 10) return { refusal: refuse(400, 'BadRequest', 'Object tags cannot be greater than 10') };
  const keys = new Set<string>();
  for (const [key, value] of pairs) {
    if (key.length < 1 || key.length > 128) return { refusal: refuse(400, 'InvalidTag', 'The TagKey you have provided is invalid') };
    if (value.length > 256) return { refusal: refuse(400, 'InvalidTag', 'The TagValue you have provided is invalid') };
    if (keys.has(key)) return { refusal: refuse(400, 'InvalidTag', 'Cannot provide multiple Tags with the same key') };
    keys.add(key);
  }
  return { tags: Object.fromEntries(pairs) };
};

const xmlUnescape = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** A `<Tagging><TagSet><Tag><Key>…</Key><Value>…</Value></Tag>…</TagSet></Tagging>` document (a POST's `tagging` field, PutObjectTagging's body). */
export const parseTaggingXml = (xml: string): Parsed => {
  const body = /^\s*(?:<\?xml[^>]*\?>\s*)?<Tagging(?:\s[^>]*)?>\s*<TagSet>([\s\S]*)<\/TagSet>\s*<\/Tagging>\s*$/.exec(xml)?.[1];
  if (body === undefined) return malformed();
  const pairs: [string, string][] = [];
  const rest = body.replace(/<Tag>\s*<Key>([^<]*)<\/Key>\s*<Value>([^<]*)<\/Value>\s*<\/Tag>/g, (_, key: string, value: string) => {
    pairs.push([xmlUnescape(key), xmlUnescape(value)]);
    return '';
  });
  return rest.trim() ? malformed() : checkTags(pairs);
};

/** PutObject's `x-amz-tagging` header: URL query parameters, `key1=value1&key2=value2`. */
export const parseTaggingHeader = (header: string): Parsed => checkTags([...new URLSearchParams(header)]);

const xmlEscape = (s: string) => s.replace(/[<>&]/g, (c) => `&#${c.charCodeAt(0)};`);

/** GetObjectTagging's answer. */
export const taggingXml = (tags: Tags) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet>${Object.entries(tags)
    .map(([k, v]) => `<Tag><Key>${xmlEscape(k)}</Key><Value>${xmlEscape(v)}</Value></Tag>`)
    .join('')}</TagSet></Tagging>`;

/**
 * When a rule expires an object: S3 adds the rule's days to the object's creation time and rounds up to the
 * next midnight UTC (created 10:30 on the 15th with 3 days: expired from 00:00 on the 19th).
 */
export const expiresAt = (createdAt: number, days: number): number => Math.ceil((createdAt + days * DAY_MS) / DAY_MS) * DAY_MS;

/** The object `key` of a bucket, with its tags and when it was created (ms). */
interface StoredObject {
  bucket: string;
  key: string;
  tags: Tags;
  createdAt: number;
}

const matches = (rule: ExpiryRule, object: StoredObject): boolean =>
  'tag' in rule
    ? Object.hasOwn(object.tags, rule.tag.key) && object.tags[rule.tag.key] === rule.tag.value
    : object.key.startsWith(rule.prefix);

/** Whether `rule` expires `object` by `now`. */
export const isExpired = (rule: ExpiryRule, object: StoredObject, now: number): boolean =>
  rule.bucket === object.bucket && matches(rule, object) && expiresAt(object.createdAt, rule.days) <= now;
