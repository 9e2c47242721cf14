/** A passage is the unit the search ranks: a few paragraphs of one article, small enough to quote in a reply. */
export const PASSAGE_TARGET_CHARS = 600;

/** Markdown reduced to readable text: no code fences, link targets, emphasis or heading marks. */
export const plainText = (markdown: string): string =>
  markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/[ \t]+/g, ' ');

/**
 * The article's passages in order: paragraphs (blank-line separated) merged until a passage reaches
 * about PASSAGE_TARGET_CHARS. A paragraph is never split, so a passage reads as written.
 */
export const passagesOf = (markdown: string): string[] => {
  const paragraphs = plainText(markdown)
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean);
  const passages: string[] = [];
  let current = '';
  for (const paragraph of paragraphs) {
    if (current && current.length + paragraph.length + 1 > PASSAGE_TARGET_CHARS) {
      passages.push(current);
      current = paragraph;
    } else current = current ? `${current}\n${paragraph}` : paragraph;
  }
  if (current) passages.push(current);
  return passages;
};

/** What the index holds of a published article (an unpublished or deleted one is simply absent). */
export interface IndexDoc {
  articleId: string;
  title: string;
  body: string;
  tags: string[];
  locale: string;
}

export interface Passage {
  articleId: string;
  title: string;
  text: string;
  locale: string;
  /** BM25+ relevance (MiniSearch), unbounded: comparable within one query only. */
  score: number;
  /** Share of the query's meaningful terms this passage matches (exactly, by prefix or fuzzily), 0–1. */
  confidence: number;
}
