import { randomBytes } from 'node:crypto';

/** Five random bytes drawn once per process, as a MongoDB ObjectId has: ids of two processes never collide. */
const PROCESS = randomBytes(5).toString('hex');
/** Three bytes that grow with each id this process makes, from a random start. */
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * 24 lowercase hex chars laid out as a MongoDB ObjectId: 4 bytes of epoch seconds, 5 bytes of this
 * process, 3 bytes of a counter. Ids sort by creation time, and those one process makes within a second
 * sort in the order it made them, so a list "newest first" is exact for what one function created.
 */
export const objectId = (now: number = Date.now()): string => {
  counter = (counter + 1) % 0x1000000;
  return (
    Math.floor(now / 1000)
      .toString(16)
      .padStart(8, '0') +
    PROCESS +
    counter.toString(16).padStart(6, '0')
  );
};

export const OBJECT_ID = /^[0-9a-f]{24}$/;

export const isObjectId = (value: string): boolean => OBJECT_ID.test(value);
