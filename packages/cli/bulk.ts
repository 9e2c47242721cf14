import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { exportCsv, importCustomers, importLeads, type components } from '../client/src/index';
import type { Session } from './session';
import { CliError } from './target';

type Import = components['schemas']['Import'];

export interface ImportCliOptions {
  idProperty?: 'email' | 'phone';
  pipeline?: string;
}

/** A progress line rewritten in place on a terminal; nothing where stderr is a file or a pipe. */
const progressLine = (stream: NodeJS.WriteStream = process.stderr) => {
  const shown = { any: false };
  return {
    show: (text: string) => {
      if (!stream.isTTY) return;
      stream.write(`\r${text}\u001b[K`);
      shown.any = true;
    },
    done: () => {
      if (shown.any) stream.write('\r\u001b[K');
    },
  };
};

const importProgress = (job: Import) => {
  const { rows, created, updated, unchanged, failed } = job.counts;
  return `Importing (${job.status}): ${rows} rows read, ${created} created, ${updated} updated, ${unchanged} unchanged, ${failed} failed`;
};

/** `parley import customers|leads <file.csv>`: the upload, then the wait, with the counts on a terminal as they grow. */
export const importPath = async (session: Session, kind: 'customers' | 'leads', path: string, opts: ImportCliOptions): Promise<Import> => {
  const csv = await readFile(path).catch(() => {
    throw new CliError(`Cannot read ${path}`);
  });
  const line = progressLine();
  const onProgress = (job: Import) => line.show(importProgress(job));
  try {
    if (kind === 'customers') return await importCustomers(session.api, csv, opts.idProperty ?? 'email', { onProgress });
    if (!opts.pipeline) throw new CliError('A leads import goes into a pipeline: name it with --pipeline <id>');
    return await importLeads(session.api, csv, opts.pipeline, { onProgress });
  } finally {
    line.done();
  }
};

/** `parley export customers|leads`: waits for the export, then streams its CSV to `out` (stdout). */
export const exportTo = async (session: Session, kind: 'customers' | 'leads', filter: Record<string, string>, out: Writable) => {
  const line = progressLine();
  const { export: done, csv } = await exportCsv(session.api, kind, filter, {
    onProgress: (job) => line.show(`Exporting (${job.status})…`),
  }).finally(line.done);
  await pipeline(Readable.fromWeb(csv.body as WebStream), out, { end: false });
  return done;
};
