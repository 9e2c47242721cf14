import { randomBytes } from 'node:crypto';

/** 24 lowercase hex chars: 4 bytes of epoch seconds, then 8 random bytes, so ids sort by creation time. */
export const objectId = (now: number = Date.now()): string =>
  Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0') + randomBytes(8).toString('hex');

export const OBJECT_ID = /^[0-9a-f]{24}$/;

export const isObjectId = (value: string): boolean => OBJECT_ID.test(value);
