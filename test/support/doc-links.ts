import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The Markdown files the doc tests read: the README and everything under docs/. */
export const markdownFiles = (root: string): string[] => {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return [join(root, 'README.md'), ...walk(join(root, 'docs'))];
};

/** The text outside fenced code blocks. */
const unfenced = (markdown: string): string => markdown.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');

/** The text outside fenced blocks and inline code, where a link is a link. */
const prose = (markdown: string): string => unfenced(markdown).replace(/``[^`\n]+``|`[^`\n]+`/g, '');

/** GitHub's anchor for a heading: formatting dropped, lower case, punctuation removed, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** Every anchor a Markdown file offers: its headings' (the nth repeat suffixed `-n`, as GitHub does) and its HTML ids. */
export const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
};

/** Inline links and images `[text](target "title")` and reference definitions `[label]: target`. */
const targetsOf = (markdown: string): string[] => {
  const text = prose(markdown);
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!),
  ];
};

/**
 * Every relative link of `files` that leads nowhere: a file or folder that does not exist, or an anchor that a
 * Markdown file does not have (`#anchor` alone is one of the linking file's own). Links with a scheme are not
 * followed. Each as `file: target (why)`, the file relative to `root`.
 */
export const brokenLinks = (root: string, files: string[]): string[] =>
  files.flatMap((file) => {
    const markdown = readFileSync(file, 'utf8');
    return targetsOf(markdown).flatMap((target) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const to = path ? resolve(dirname(file), decodeURI(path)) : file;
      const broken = (why: string) => [`${relative(root, file)}: ${target} (${why})`];
      if (!existsSync(to)) return broken('no such file');
      if (anchor === undefined || !to.endsWith('.md') || statSync(to).isDirectory()) return [];
      return anchorsOf(readFileSync(to, 'utf8')).has(decodeURIComponent(anchor).toLowerCase()) ? [] : broken('no such anchor');
    });
  });
