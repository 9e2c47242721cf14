import type { Tenant } from '../../shared/domain/auth/tenant';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../infra/local/stack';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { createArticle } from '../../shared/ai/articles';
import { recordArticle } from '../../shared/data/kb-index';
import { tenantPk } from '../../shared/data/keys';
import { mapLimit } from '../../shared/domain/map-limit';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { measureInterleaved, type Latency, type Section } from './measure';
import { tokenPool } from './token-pool';
import { direct } from '../../shared/data/unit';

const ARTICLES = 5_000;
const REQUESTS = 60;
const WARMUP = 3;
const PARAGRAPHS = 4;
const WORDS_PER_PARAGRAPH = 70;

/** A deterministic pseudo-random corpus: 3,000 made-up words, Zipf-ish frequencies, ~2 KB per article. */
const rng = (seed: number) => {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
};
const random = rng(42);
const SYLLABLES = ['ka', 'lo', 'mi', 'ter', 'van', 'os', 'rie', 'pul', 'den', 'sho', 'qua', 'nix', 'bel', 'tor', 'ami', 'zu'];
const VOCABULARY = Array.from({ length: 3_000 }, () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''),
);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
const article = (i: number) => ({
  articleId: `${(i + 1).toString(16).padStart(24, '0')}`,
  title: `${sentence(4)} ${i}`,
  body: Array.from({ length: PARAGRAPHS }, () => `${sentence(WORDS_PER_PARAGRAPH)}.`).join('\n\n'),
  tags: [word(), word()],
  locale: 'en',
});
/** A query a customer might type: two rarer words of one article, one of them with a typo. */
const query = (doc: ReturnType<typeof article>) => {
  const words = doc.body.split(/\W+/).filter((w) => w.length > 5);
  const a = words[Math.floor(random() * words.length)]!;
  const b = words[Math.floor(random() * words.length)]!;
  return `${a.slice(0, 2)}${a.slice(3)} ${b}`;
};

/** Writes the index documents directly, as the index consumer would have left them after 5,000 creates. */
const seedIndex = async (tenant: Tenant, docs: ReturnType<typeof article>[]) => {
  const pk = tenantPk(tenant, 'KBIDX');
  const batches = Array.from({ length: Math.ceil(docs.length / 25) }, (_, i) => docs.slice(i * 25, i * 25 + 25));
  await mapLimit(batches, 8, async (batch) => {
    let items = batch.map((d) => ({ PutRequest: { Item: { pk, sk: `DOC#${d.articleId}`, type: 'KB_DOC', ...d } } }));
    while (items.length) {
      const res = await dynamo().send(new BatchWriteCommand({ RequestItems: { [config().TABLE_NAME]: items } }));
      items = (res.UnprocessedItems?.[config().TABLE_NAME] ?? []) as typeof items;
    }
  });
};

const row = (name: string, l: Latency, base: Latency) => [name, l.p50Ms, l.p99Ms, l.p50Ms / base.p50Ms, l.p99Ms / base.p99Ms];

/**
 * Search at 5,000 articles (about 20,000 passages) through HTTP: the warm path (one consistent GetItem
 * of the index head, then MiniSearch in memory), the path after a change (one Query of the change log and
 * one GetItem per changed article), and the cold build of a container's index from its documents. The
 * baseline is GET of one article: the same pipeline with one GetItem.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  const docs = Array.from({ length: ARTICLES }, (_, i) => article(i));
  await seedIndex(tenant, docs);
  const one = await createArticle(direct, tenant, { title: 'Baseline', body: 'One article read by id.' }, new Date());
  await recordArticle(direct, tenant, one._id, async () => one);

  const readToken = tokenPool(workspaceId, RATE_LIMITS.read, 'ai:read');
  const get = async (path: string) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${await readToken()}`, 'x-workspace-id': workspaceId },
    });
    const json = (await res.json()) as { data: { passages?: unknown[] } };
    if (!res.ok) throw new Error(`${path}: unexpected ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const search = (i: number) =>
    get(`/api/v1/ai/knowledge-base/search?q=${encodeURIComponent(query(docs[(i * 7919) % ARTICLES]!))}&limit=10`);

  const heapBefore = process.memoryUsage().heapUsed;
  const coldStarted = performance.now();
  const first = await search(0);
  const coldMs = performance.now() - coldStarted;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  if (!first.passages?.length) throw new Error('the bench query found nothing');

  let hits = 0;
  const warm = await measureInterleaved(
    {
      base: () => get(`/api/v1/ai/knowledge-base/articles/${one._id}`),
      warm: async (i) => {
        const data = await search(i + 1);
        if (data.passages?.length) hits++;
      },
      changed: async (i) => {
        const doc = docs[i % ARTICLES]!;
        await recordArticle(direct, tenant, doc.articleId, async () => ({
          _id: doc.articleId,
          ...doc,
          body: `${doc.body} edit${i}`,
          published: true,
          createdAt: '',
          updatedAt: '',
        }));
        await search(i + 2);
      },
    },
    { requests: REQUESTS, warmup: WARMUP },
  );
  return [
    {
      title: `AI: knowledge-base search at ${ARTICLES.toLocaleString('en')} articles vs GET one article`,
      columns: ['call', 'p50 ms', 'p99 ms', 'p50 ÷ baseline', 'p99 ÷ baseline'],
      rows: [
        row('GET /ai/knowledge-base/articles/{id} (baseline)', warm.base, warm.base),
        row('GET /ai/knowledge-base/search, warm index', warm.warm, warm.base),
        row('GET …/search after one article change (time includes recording the change)', warm.changed, warm.base),
        ['first search on a cold container (builds the index)', coldMs, coldMs, coldMs / warm.base.p50Ms, coldMs / warm.base.p99Ms],
      ],
      notes: [
        `Index of ${ARTICLES} articles (${ARTICLES * PARAGRAPHS} paragraphs of ${WORDS_PER_PARAGRAPH} words, merged into passages of ~600 characters): heap grew by ${heapMb.toFixed(0)} MB for the build (the search function gets 1,024 MB).`,
        `Queries are two words of a random article, one with a typo (a deleted letter); ${hits} of ${REQUESTS + WARMUP} warm searches (warm-up included) returned passages.`,
      ],
    },
  ];
};
