import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `content` to `file` whole or not at all: into a file beside it, then renamed over it (a rename within a
 * folder is atomic), so a process killed mid-write leaves the previous content readable, never a truncated one.
 * `mode` is set on the new content whatever a leftover temporary file had.
 */
export const writeWhole = (file: string, content: string | Uint8Array, mode?: number): void => {
  const temp = `${file}.tmp`;
  writeFileSync(temp, content, mode === undefined ? undefined : { mode });
  if (mode !== undefined) chmodSync(temp, mode);
  renameSync(temp, file);
};
