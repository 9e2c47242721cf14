import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import { describe, expect, it } from 'vitest';
import { ownCodeSourceMap } from '../../../infra/constructs/own-code-source-map';

const SOURCES = [
  '../../shared/data/tags.ts',
  '../../node_modules/zod/v4/core/schemas.js',
  'zod-json-schema-stand-in:node_modules/zod/v4/core/json-schema-processors.js',
  '../../functions/http/tags/get-tag.ts',
];
const NAMES = ['getTag', 'parse', 'byType', 'handler'];

/** Two generated lines of a bundle: Parley code, a run of dependency code, Parley again; a line opening in a dependency. */
const LINES: SourceMapSegment[][] = [
  [
    [0, 0, 3, 4, 0],
    [12, 1, 40, 2, 1],
    [30, 1, 41, 0],
    [44, 2, 1, 6, 2],
    [60, 3, 9, 13, 3],
    [75, 0, 5, 0],
  ],
  [
    [0, 1, 90, 0],
    [20, 3, 10, 2],
  ],
];
const map = { version: 3 as const, sources: SOURCES, names: NAMES, mappings: encode(LINES) };

/** Every generated position a lookup can land on: each segment's column and the one after it. */
const positions = LINES.flatMap((line, l) => line.flatMap(([column]) => [[l, column] as const, [l, column + 1] as const]));

/** What Node's reader finds at a generated position: the mapping before it, or `{}`. */
const lookup = (reader: SourceMap, line: number, column: number) => reader.findEntry(line, column) as Partial<SourceMapping>;

describe("a bundle's source map narrowed to Parley's own code", () => {
  const narrowed = ownCodeSourceMap(map);
  // Node's own reader, as `--enable-source-maps` reads the map at a cold start.
  const before = new SourceMap(map as SourceMapPayload);
  const after = new SourceMap(narrowed as SourceMapPayload);

  it('maps every position in Parley code exactly as before', () => {
    const own = positions.filter(([l, c]) => !/node_modules/.test(lookup(before, l, c).originalSource ?? 'node_modules'));
    expect(own).toHaveLength(8);
    for (const [l, c] of own) expect(lookup(after, l, c)).toEqual(lookup(before, l, c));
  });

  it('maps no position in a dependency, not even to the Parley code before it', () => {
    const dependency = positions.filter(([l, c]) => /node_modules/.test(lookup(before, l, c).originalSource ?? ''));
    expect(dependency).toHaveLength(8);
    for (const [l, c] of dependency) expect(lookup(after, l, c).originalSource).toBeUndefined();
  });

  it('keeps only the sources and names Parley code uses, and one unmapped segment per run of dependency code', () => {
    expect(narrowed.sources).toEqual(['../../shared/data/tags.ts', '../../functions/http/tags/get-tag.ts']);
    expect(narrowed.names).toEqual(['getTag', 'handler']);
    expect(decode(narrowed.mappings)).toEqual([
      [[0, 0, 3, 4, 0], [12], [60, 1, 9, 13, 1], [75, 0, 5, 0]],
      [[0], [20, 1, 10, 2]],
    ]);
  });
});
