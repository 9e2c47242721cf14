import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { uploadFile } from '../client/src/index';
import type { Session } from './session';
import { CliError } from './target';

/** What a file's extension says its type is, for the types the verifier knows and a few more. */
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
};

export interface UploadCliOptions {
  type?: string;
  name?: string;
}

/** `parley files upload <path>`: the two steps of an upload, then the wait for the verifier's verdict. */
export const uploadPath = async (session: Session, path: string, opts: UploadCliOptions) => {
  const contentType = opts.type ?? TYPES[extname(path).toLowerCase()];
  if (!contentType) throw new CliError(`Cannot tell the content type of ${path}: give it with --type, e.g. --type application/pdf`);
  const bytes = await readFile(path).catch(() => {
    throw new CliError(`Cannot read ${path}`);
  });
  return uploadFile(session.api, opts.name ?? basename(path), bytes, contentType);
};
