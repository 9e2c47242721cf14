import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { tableSchema, type IndexName } from '../shared/data/table';

export type StageName = 'dev' | 'prod';

/** Everything that differs between a throwaway and a production deployment, decided once from CDK context. */
export interface Stage {
  name: StageName;
  /** Table deletion protection, and RETAIN for data-bearing resources. */
  protectData: boolean;
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Default HTTP API throttling for every route. */
  throttle: { rateLimit: number; burstLimit: number };
  /** How long failed events and deliveries wait in a DLQ for a redrive. */
  dlqRetention: Duration;
  /** `-c alarmEmail=ops@example.com` subscribes that address to the alarm topic. */
  alarmEmail?: string;
  /** `-c domainName=api.example.com -c certificateArn=arn:aws:acm:…` maps the API to a custom domain. */
  domain?: { name: string; certificateArn: string };
  /** `-c corsOrigins=https://app.example.com,https://admin.example.com`; CORS is off when absent. */
  corsOrigins?: string[];
  /**
   * `-c edge=true|false` (on in prod, off in dev by default): the API only through CloudFront with a WAF web
   * ACL (a per-IP rate limit), its execute-api endpoint disabled. CloudFront then reaches the API on its
   * custom domain, so the edge needs `domain`.
   */
  edge: boolean;
  /**
   * `-c tableIndexes=gsi1,gsi2,gsi3`: the table's global secondary indexes this deployment creates (all of
   * `tableSchema`'s by default). CloudFormation adds one index per update of an existing table, so an upgrade that
   * brings two new ones deploys the data stack once per index (docs/operations/deploy.md).
   */
  tableIndexes: readonly IndexName[];
}

const STAGES: Record<StageName, Omit<Stage, 'name' | 'alarmEmail' | 'domain' | 'corsOrigins' | 'tableIndexes'>> = {
  dev: {
    protectData: false,
    removalPolicy: RemovalPolicy.DESTROY,
    logRetention: RetentionDays.TWO_WEEKS,
    throttle: { rateLimit: 50, burstLimit: 100 },
    dlqRetention: Duration.days(14),
    edge: false,
  },
  prod: {
    protectData: true,
    removalPolicy: RemovalPolicy.RETAIN,
    logRetention: RetentionDays.THREE_MONTHS,
    throttle: { rateLimit: 500, burstLimit: 1000 },
    dlqRetention: Duration.days(14),
    edge: true,
  },
};

const text = (node: Node, key: string): string | undefined => {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`context ${key} must be a string`);
  return value;
};

const list = (value: string | undefined): string[] | undefined =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const tableIndexesFrom = (value: string | undefined): readonly IndexName[] => {
  const all = tableSchema.indexes.map((index) => index.name);
  const named = list(value);
  if (!named) return all;
  const unknown = named.filter((name) => !all.includes(name as IndexName));
  if (unknown.length) throw new Error(`context tableIndexes names no index of the table: ${unknown.join(', ')} (it has ${all.join(', ')})`);
  return all.filter((name) => named.includes(name));
};

/** Reads `-c stage=dev|prod` (default dev) and the optional alarm, domain, CORS and table-index context. */
export const stageFrom = (node: Node): Stage => {
  const name = text(node, 'stage') ?? 'dev';
  if (name !== 'dev' && name !== 'prod') throw new Error(`context stage must be dev or prod, got "${name}"`);
  const domainName = text(node, 'domainName');
  const certificateArn = text(node, 'certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('context domainName and certificateArn go together');
  const cors = text(node, 'corsOrigins');
  const edgeFlag = text(node, 'edge');
  if (edgeFlag !== undefined && edgeFlag !== 'true' && edgeFlag !== 'false')
    throw new Error(`context edge must be true or false, got "${edgeFlag}"`);
  const edge = edgeFlag === undefined ? STAGES[name].edge : edgeFlag === 'true';
  if (edge && !domainName) {
    throw new Error(
      `stage ${name} puts the API behind CloudFront and a WAF with its execute-api endpoint disabled, so CloudFront needs the API's custom domain: give -c domainName and -c certificateArn, or -c edge=false`,
    );
  }
  return {
    name,
    ...STAGES[name],
    alarmEmail: text(node, 'alarmEmail'),
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    corsOrigins: list(cors),
    edge,
    tableIndexes: tableIndexesFrom(text(node, 'tableIndexes')),
  };
};
