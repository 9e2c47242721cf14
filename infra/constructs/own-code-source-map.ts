import { readFileSync, writeFileSync } from 'node:fs';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

/** A dependency, read as it is or through a plugin of `bundling.ts` (`<namespace>:node_modules/…`). */
const isDependency = (source: string) => /(^|[/:])node_modules\//.test(source);

/** Hands out the new index of each old one kept, in first-seen order, and remembers what it kept. */
const renumbering = <T>(all: T[]) => {
  const index = new Map<number, number>();
  const kept: T[] = [];
  const of = (old: number) => {
    if (!index.has(old)) index.set(old, kept.push(all[old]!) - 1);
    return index.get(old)!;
  };
  return { of, kept };
};

interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
}

/**
 * A bundle's source map narrowed to Parley's own code: the segments that map into a dependency (`node_modules`:
 * the AWS SDK, zod, middy) become one unmapped segment per run, and the sources and names only they used are
 * dropped. `--enable-source-maps` reads and parses every mapping of a bundle at its import, and a route's bundle is
 * mostly dependencies, so this is most of the map's cost at a cold start. A stack trace still names the source line
 * of every Parley frame; a dependency's frame keeps its place in the bundle (an unmapped segment, not the Parley
 * code before it, is what a lookup there finds).
 */
export const ownCodeSourceMap = (map: SourceMapV3): SourceMapV3 => {
  const sources = renumbering(map.sources);
  const names = renumbering(map.names);
  const mappings = decode(map.mappings).map((line) => {
    const kept: SourceMapSegment[] = [];
    for (const segment of line) {
      if (segment.length === 1 || isDependency(map.sources[segment[1]]!)) {
        if (kept.at(-1)?.length !== 1) kept.push([segment[0]]);
        continue;
      }
      const [column, source, sourceLine, sourceColumn] = segment;
      kept.push(
        segment.length === 5
          ? [column, sources.of(source), sourceLine, sourceColumn, names.of(segment[4])]
          : [column, sources.of(source), sourceLine, sourceColumn],
      );
    }
    return kept;
  });
  return { version: 3, sources: sources.kept, names: names.kept, mappings: encode(mappings) };
};

/** Rewrites a source map file in place with only Parley's own code mapped. */
export const narrowSourceMapFile = (path: string): void => {
  const map = JSON.parse(readFileSync(path, 'utf8')) as SourceMapV3;
  writeFileSync(path, JSON.stringify(ownCodeSourceMap(map)));
};
