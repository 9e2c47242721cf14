import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { markdownFiles } from './doc-links';

/**
 * A fenced code block of the README or docs/. Its info string says how the doc test treats it:
 * - `sh`: run with bash against a fresh local stack (`$API`, `$TOKEN` and `$WS` are set for it);
 * - `sh check`: not run (it installs, starts a server, or needs AWS): parsed by bash, and every
 *   `npm run`, `npx` and `npx parley` command in it must exist with the options it names;
 * - `json`: parsed; `json POST <path>`: also sent to the local stack, which must accept it;
 * - `ts`: type-checked; `ts <file>`: must be that file of the repo, verbatim.
 * Blocks with no language (sample output, diagrams) are not examples.
 */
export interface DocExample {
  file: string;
  line: number;
  lang: string;
  args: string[];
  code: string;
}

export const docExamples = (root: string): DocExample[] =>
  markdownFiles(root).flatMap((path) => {
    const lines = readFileSync(path, 'utf8').split('\n');
    const found: DocExample[] = [];
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*)```(\S+)(.*)$/.exec(lines[i]!);
      if (!open) continue;
      const indent = open[1]!.length;
      const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
      const code = lines
        .slice(i + 1, end)
        .map((l) => l.slice(indent))
        .join('\n');
      found.push({ file: relative(root, path), line: i + 1, lang: open[2]!, args: open[3]!.trim().split(/\s+/).filter(Boolean), code });
      i = end;
    }
    return found;
  });

/** Shell lines joined across `\` continuations, comments dropped. */
export const shellCommands = (code: string): string[] =>
  code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);

/** `<workspaceId>`-style placeholders, for a syntax check: a `<` would otherwise read as a redirection. */
export const withoutPlaceholders = (code: string): string => code.replace(/<[A-Za-z][^<>\n]*>/g, 'PLACEHOLDER');

/** Each `npx parley …` in a command line: its words up to the first option, and the options it names. */
export const parleyInvocations = (line: string): { words: string[]; options: string[] }[] =>
  [...line.matchAll(/npx parley ([^|;&]*)/g)].map((m) => {
    const tokens = m[1]!.replace(/[[\]]/g, ' ').split(/\s+/).filter(Boolean);
    const firstOption = tokens.findIndex((t) => t.startsWith('-'));
    const words = (firstOption < 0 ? tokens : tokens.slice(0, firstOption)).filter((t) => /^[a-z][a-z-]*$/.test(t));
    return { words, options: tokens.filter((t) => t.startsWith('--')).map((t) => t.split('=')[0]!) };
  });
