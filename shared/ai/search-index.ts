import MiniSearch, { type SearchResult } from 'minisearch';
import { passagesOf, type IndexDoc, type Passage } from '../domain/ai/passages';

interface Row {
  id: string;
  articleId: string;
  title: string;
  text: string;
  tags: string;
  locale: string;
}

// Words that carry no topic: a question's "how do I" must not decide what matches.
const STOPWORDS = new Set(
  'a an and are as at be but by can do does for from have how i if in is it its me my no not of on or our so that the their then there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

const tokenize = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const processTerm = (term: string): string | null => (STOPWORDS.has(term) ? null : term);

/** The query terms confidence is measured against. */
const queryTerms = (query: string): string[] => [...new Set(tokenize(query).filter((t) => !STOPWORDS.has(t)))];

/** Typo tolerance grows with the term (0.2 × length edits: none below 5 letters), and any term also matches as a prefix. */
const SEARCH_OPTIONS = { fuzzy: 0.2, prefix: true, boost: { title: 2, tags: 1.5 }, combineWith: 'OR' } as const;

/**
 * A workspace's passage index, kept in memory by the warm function that searches it. Documents are
 * replaced article by article (`put`/`remove`) as the change log reports them.
 */
export class KnowledgeIndex {
  private readonly search = new MiniSearch<Row>({
    fields: ['title', 'text', 'tags'],
    storeFields: ['articleId', 'title', 'text', 'locale'],
    tokenize,
    processTerm,
    searchOptions: SEARCH_OPTIONS,
  });
  private readonly passageIds = new Map<string, string[]>();

  get articleCount(): number {
    return this.passageIds.size;
  }

  put(doc: IndexDoc): void {
    this.remove(doc.articleId);
    const rows = passagesOf(doc.body).map((text, i) => ({
      id: `${doc.articleId}#${i}`,
      articleId: doc.articleId,
      title: doc.title,
      text,
      tags: doc.tags.join(' '),
      locale: doc.locale,
    }));
    this.search.addAll(rows);
    this.passageIds.set(
      doc.articleId,
      rows.map((r) => r.id),
    );
  }

  remove(articleId: string): void {
    for (const id of this.passageIds.get(articleId) ?? []) this.search.discard(id);
    this.passageIds.delete(articleId);
  }

  /** The best passages for `query`, at most one per article, best first; `language` keeps articles whose locale is in it. */
  query(query: string, opts: { limit: number; language?: string }): Passage[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const lang = opts.language?.toLowerCase();
    const filter = lang ? (r: SearchResult) => (r.locale as string).toLowerCase().split('-')[0] === lang.split('-')[0] : undefined;
    const seen = new Set<string>();
    const out: Passage[] = [];
    for (const r of this.search.search(query, { filter })) {
      if (seen.has(r.articleId as string)) continue;
      seen.add(r.articleId as string);
      const matched = new Set(r.queryTerms).size;
      out.push({
        articleId: r.articleId as string,
        title: r.title as string,
        text: r.text as string,
        locale: r.locale as string,
        score: Math.round(r.score * 1000) / 1000,
        confidence: Math.round((Math.min(matched, terms.length) / terms.length) * 1000) / 1000,
      });
      if (out.length >= opts.limit) break;
    }
    return out;
  }
}
