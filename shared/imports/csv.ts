import { once } from 'node:events';
import { parse } from 'csv-parse';

/** Why a whole CSV cannot be read on (not UTF-8, malformed): the import fails with this reason. */
export class UnreadableCsv extends Error {}

/** One CSV record: the line it starts on (1 is the header's) and its cells. */
export interface ParsedRecord {
  line: number;
  cells: string[];
}

/** A record longer than this (1 MiB of text) is refused: a worker's memory stays at a chunk of records whatever the file. */
const MAX_RECORD_CHARS = 1024 * 1024;

const count = (cells: string[], pattern: RegExp) => cells.reduce((n, cell) => n + (cell.match(pattern)?.length ?? 0), 0);

/**
 * Tells each record's first line. csv-parse's `info.lines` is the line a record ends on, except that it
 * counts a CRLF inside quotes as two line breaks; so it is corrected by the CRLFs inside the cells so far,
 * and a record starts as many line breaks (CRLF, CR or LF) before its end as its cells hold.
 */
const lineCounter = () => {
  let crlfsInCells = 0;
  return (endLine: number, cells: string[]) => {
    crlfsInCells += count(cells, /\r\n/g);
    return endLine - crlfsInCells - count(cells, /\r\n|\r|\n/g);
  };
};

/**
 * The records of a CSV (RFC 4180 by csv-parse: quoted fields, quotes doubled inside them, line breaks inside
 * quotes, a UTF-8 BOM dropped, empty lines skipped), read as the bytes stream in, never whole. Bytes that
 * are not UTF-8, and a malformed CSV, end the records with an `UnreadableCsv` naming the line.
 */
export async function* csvRecords(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<ParsedRecord> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS });
  const notUtf8 = () =>
    new UnreadableCsv(`The CSV is not valid UTF-8 (invalid bytes after line ${parser.info.lines}): save it as UTF-8 and import it again`);
  const stop = new AbortController();
  const feed = async () => {
    for await (const chunk of bytes) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw notUtf8();
      }
      if (!parser.write(text)) await once(parser, 'drain', { signal: stop.signal });
    }
    try {
      parser.end(decoder.decode());
    } catch {
      throw notUtf8();
    }
  };
  const fed = feed().catch((error: unknown) => {
    parser.destroy(error as Error);
  });
  try {
    const startLine = lineCounter();
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { line: startLine(info.lines, record), cells: record };
    }
  } catch (error) {
    if (error instanceof UnreadableCsv) throw error;
    throw new UnreadableCsv(`Malformed CSV: ${(error as Error).message}`);
  } finally {
    // A reader that stops early (a worker out of time) ends the feed, which closes the object's stream.
    stop.abort();
    parser.destroy();
    await fed;
  }
}
