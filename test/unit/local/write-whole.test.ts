import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeWhole } from '../../../infra/local/write-whole';

const dir = mkdtempSync(join(tmpdir(), 'parley-write-whole-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeWhole', () => {
  it('replaces the content and leaves nothing beside it', () => {
    const file = join(dir, 'state.json');
    writeWhole(file, '{"a":1}');
    writeWhole(file, '{"b":2}');
    expect(readFileSync(file, 'utf8')).toBe('{"b":2}');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a write killed before its rename leaves the previous content whole, and the next write goes through', () => {
    const file = join(dir, 'checkpoint.json');
    writeWhole(file, '{"shards":{"s":"1"}}');
    writeFileSync(`${file}.tmp`, '{"shards":{"s"'); // what a process killed mid-write leaves
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ shards: { s: '1' } });
    writeWhole(file, '{"shards":{"s":"2"}}');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ shards: { s: '2' } });
  });

  it('gives the new content the mode asked for, whatever a leftover temporary file had', () => {
    const file = join(dir, 'secrets.json');
    writeFileSync(`${file}.tmp`, 'old', { mode: 0o644 });
    writeWhole(file, '{}', 0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
