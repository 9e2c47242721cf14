import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { writeWhole } from './write-whole';

/** The SQLite file DynamoDB Local keeps every table in, with `-sharedDb`. */
export const DATABASE_FILE = 'shared-local-instance.db';

/**
 * DynamoDB Local's SQLite schema indexes its stream tables only by their keys. Each write describes its
 * table's stream to number its record, and each stream read looks its shard up, so both scanned every stream
 * record the database held, a deleted table's too (it keeps them DynamoDB's 24 hours), and the stream and
 * shard rows of every table it ever made. Measured on a database in a folder (`npm start`'s), an update, a get
 * and a query per round: 1.2 ms of its CPU a request fresh, then 14.7, 31.7 and 45.1 ms after 6,500, 12,000
 * and 17,500 stream records; with these indexes about 1 ms up to 23,000 and beyond. They change no answer.
 */
export const STREAM_INDEXES: Record<string, string> = {
  parley_us_stream: 'us (StreamID, SequenceNumber)',
  parley_us_shard: 'us (ShardID, SequenceNumber)',
  parley_sm_table: 'sm (TableName)',
  parley_ss_stream: 'ss (StreamID)',
};

const indexesSql = Object.entries(STREAM_INDEXES)
  .map(([name, on]) => `CREATE INDEX IF NOT EXISTS ${name} ON ${on};`)
  .join('\n');

const names = (db: { exec(sql: string): { values: unknown[][] }[] }, type: 'table' | 'index') =>
  new Set(db.exec(`SELECT name FROM sqlite_master WHERE type = '${type}'`)[0]?.values.flat() ?? []);

/**
 * Adds the stream indexes to a database no DynamoDB Local has open (the file is rewritten whole). A database
 * DynamoDB Local never made its tables in is left as it is: they come at its first request, and the indexes at
 * the next start.
 */
const indexStreamTables = async (file: string): Promise<void> => {
  const SQL = await initSqlJs();
  const db = new SQL.Database(readFileSync(file));
  try {
    const indexes = names(db, 'index');
    if (!names(db, 'table').has('us') || Object.keys(STREAM_INDEXES).every((name) => indexes.has(name))) return;
    db.exec(indexesSql);
    writeWhole(file, db.export());
  } finally {
    db.close();
  }
};

/** Where the indexed empty database is kept between processes: beside the packages, made anew by `npm ci`. */
const cacheDir = resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'parley');

let template: Promise<string> | undefined;

/**
 * An empty database with DynamoDB Local's tables and the stream indexes, made once per install of a given
 * DynamoDB Local (`version` names it) and copied for every new database: `make(dir)` runs DynamoDB Local on
 * `dir` until its tables exist and stops it.
 */
const templateFor = (version: string, make: (dir: string) => Promise<void>): Promise<string> =>
  (template ??= (async () => {
    const file = join(cacheDir, `${version}-${createHash('sha256').update(indexesSql).digest('hex').slice(0, 12)}.db`);
    if (existsSync(file)) return file;
    const dir = mkdtempSync(join(tmpdir(), 'parley-dynamodb-template-'));
    try {
      await make(dir);
      await indexStreamTables(join(dir, DATABASE_FILE));
      mkdirSync(cacheDir, { recursive: true });
      const next = `${file}.${process.pid}`;
      copyFileSync(join(dir, DATABASE_FILE), next);
      renameSync(next, file);
      return file;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })().catch((error: unknown) => {
    template = undefined;
    throw error;
  }));

/**
 * Readies `dir` for DynamoDB Local: a new folder gets the indexed empty database, an existing database the
 * indexes it lacks (one kept by `npm start` before they were added).
 */
export const prepareDatabase = async (dir: string, version: string, make: (dir: string) => Promise<void>): Promise<void> => {
  const file = join(dir, DATABASE_FILE);
  if (existsSync(file)) {
    await indexStreamTables(file);
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(await templateFor(version, make), file);
};
