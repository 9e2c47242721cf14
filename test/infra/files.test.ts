import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { FILES_BUCKET } from '../../functions/wiring/files';
import { sharedSynth, type Synthesized } from './synth';

/** The files bucket, its notifications and its grants as the real wiring deploys them. */
let app: Synthesized;
beforeAll(() => {
  app = sharedSynth();
}, 300_000);

const functions = () => [
  ...wiring.routes,
  ...wiring.queues.map((q) => q.consumer),
  ...wiring.rules.map((r) => r.target),
  ...wiring.schedules.map((s) => s.target),
];

/** Every IAM statement of the app's stacks that names the files bucket. */
const s3Statements = () =>
  app.all.flatMap((stack) =>
    Object.values(app.template(stack).findResources('AWS::IAM::Policy')).flatMap((p: any) =>
      (p.Properties.PolicyDocument.Statement as any[]).filter((s) => JSON.stringify(s.Resource).includes('Bucketfiles')),
    ),
  );

/** The statements of the role described `description…` (a function's title: `POST /api/v1/files:`, `Bus rule file-objects`). */
const statementsOf = (description: string): any[] =>
  app.all.flatMap((stack) => {
    const template = app.template(stack);
    const roles = Object.entries(template.findResources('AWS::IAM::Role'))
      .filter(([, r]: [string, any]) => String(r.Properties.Description ?? '').startsWith(description))
      .map(([id]) => id);
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p: any) => p.Properties.Roles.some((r: any) => roles.includes(r.Ref)))
      .flatMap((p: any) => p.Properties.PolicyDocument.Statement as any[]);
  });

/** The S3 actions granted to that role on the files bucket. */
const s3ActionsOf = (description: string): string[] =>
  statementsOf(description)
    .filter((s) => JSON.stringify(s.Resource).includes('Bucketfiles'))
    .flatMap((s) => [s.Action].flat());

describe('the files bucket', () => {
  it('is private: public access blocked, TLS enforced, encrypted at rest, owner-enforced, no website', () => {
    const data = app.template(app.stacks.data);
    data.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
          {
            Id: 'expire-unverified-objects',
            Status: 'Enabled',
            ExpirationInDays: 1,
            TagFilters: [{ Key: 'parley-state', Value: 'pending' }],
          },
          { Id: 'expire-exports', Status: 'Enabled', ExpirationInDays: 7, Prefix: 'bulk/exports/' },
          ...[1, 2, 3, 4, 5, 6].map((days) => ({
            Id: `expire-rewritten-exports-${days}d`,
            Status: 'Enabled',
            ExpirationInDays: days,
            TagFilters: [{ Key: 'parley-export-days-left', Value: String(days) }],
          })),
        ],
      },
      WebsiteConfiguration: Match.absent(),
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('only the functions that touch files hold an S3 grant, each with just its actions, on the bucket’s objects', () => {
    const holders = Object.fromEntries(
      functions()
        .filter((s) => s.access.buckets?.[FILES_BUCKET])
        .map((s) => [s.handler, s.access.buckets![FILES_BUCKET]]),
    );
    expect(holders).toEqual({
      'functions/http/files/create-upload.ts': ['write'],
      'functions/http/files/get-file.ts': ['download'],
      'functions/events/verify-upload.ts': ['read', 'delete'],
      'functions/events/file-objects.ts': ['untag', 'delete'],
      'functions/http/channels/receive-inbound.ts': ['write', 'read', 'delete'],
      'functions/queues/send-channel-message.ts': ['read'],
      // CSV exports and imports (docs/guide/imports-exports.md): the bulk worker writes an export's CSV under
      // `bulk/exports/` and reads an import's under `bulk/imports/`; the export routes sign its download through the CDN, the
      // import routes sign the CSV's upload. An erasure (docs/guide/data-rights.md) deletes the files of the customer's conversations.
      // It also lists the bulk CSVs (only those) to rewrite them without an erased customer.
      'functions/queues/run-bulk-job.ts': ['read', 'write', 'delete', 'list:bulk/'],
      'functions/http/contacts/get-customers-export.ts': ['download'],
      'functions/http/crm/get-leads-export.ts': ['download'],
      'functions/http/contacts/create-customers-import.ts': ['write'],
      'functions/http/crm/create-leads-import.ts': ['write'],
    });
    const listings = s3Statements().filter((s) => s.Action === 's3:ListBucket');
    // The one listing: the bucket itself (no object), and only keys under `bulk/`.
    expect(listings).toEqual([
      expect.objectContaining({ Resource: expect.anything(), Condition: { StringLike: { 's3:prefix': 'bulk/*' } } }),
    ]);
    expect(JSON.stringify(listings[0].Resource)).not.toContain('/*');
    const statements = s3Statements().filter((s) => s.Action !== 's3:ListBucket');
    // Signing a download reads no object: get-file and the export routes hold no S3 action at all.
    expect(statements).toHaveLength(Object.keys(holders).length - 3);
    expect(s3ActionsOf('GET /api/v1/files/{id}:')).toEqual([]);
    const object = ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject', 's3:DeleteObjectTagging'];
    for (const s of statements) {
      expect([s.Action].flat().every((a: string) => object.includes(a))).toBe(true);
      // `<bucket arn>/*`: its objects only, never the bucket itself.
      expect(s.Resource['Fn::Join'][1][1]).toBe('/*');
    }
    // A tagged upload needs PutObjectTagging beside PutObject; removing the pending tag needs DeleteObjectTagging.
    expect(s3ActionsOf('POST /api/v1/files:')).toEqual(['s3:PutObject', 's3:PutObjectTagging']);
    expect(s3ActionsOf('Bus rule file-objects')).toEqual(['s3:DeleteObjectTagging', 's3:DeleteObject']);
    expect(s3ActionsOf('DELETE /api/v1/files/{id}:')).toEqual([]);
    expect(s3ActionsOf('POST /api/v1/contacts/customers/imports:')).toEqual(['s3:PutObject', 's3:PutObjectTagging']);
    expect(s3ActionsOf('Consumer of queue bulk')).toEqual([
      's3:GetObject',
      's3:PutObject',
      's3:PutObjectTagging',
      's3:DeleteObject',
      's3:ListBucket',
    ]);
  });

  it('S3 notifies the default bus: the verifier’s rule matches this bucket’s new objects but the bulk jobs’ CSVs, the import rule only imports’', () => {
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: 'default',
      EventPattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: { bucket: { name: [Match.anyValue()] }, object: { key: [{ 'anything-but': { prefix: 'bulk/' } }] } },
      },
    });
    workers.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: 'default',
      EventPattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: { bucket: { name: [Match.anyValue()] }, object: { key: [{ prefix: 'bulk/imports/' }] } },
      },
    });
    const rules = Object.values(workers.findResources('AWS::Events::Rule')).filter((r: any) => r.Properties.EventBusName === 'default');
    expect(rules).toHaveLength(2);
    // The import rule's target only queues the import for the bulk worker: it sends to that queue and reads no object.
    const starter = statementsOf('Bus rule start-import');
    const sends = starter.filter((st) => st.Action === 'sqs:SendMessage');
    expect(sends).toHaveLength(1);
    expect(JSON.stringify(sends[0].Resource)).toMatch(/Queues:ExportsOutputFnGetAttBulk/);
    expect(s3ActionsOf('Bus rule start-import')).toEqual([]);
  });

  it('runs the retention sweep hourly for up to 5 minutes with table reads and writes only: the objects follow the files’ events, not its own grant', () => {
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Scheduler::Schedule', {
      Description: 'Parley sweep-retention, every 60 min',
      ScheduleExpression: 'rate(1 hour)',
    });
    const [sweep, ...others] = Object.values(workers.findResources('AWS::Lambda::Function')).filter((f: any) =>
      String(f.Properties.Description ?? '').startsWith('Schedule sweep-retention'),
    ) as any[];
    expect(others).toEqual([]);
    expect(sweep.Properties.Timeout).toBe(300);
    const actions = [...new Set(statementsOf('Schedule sweep-retention').flatMap((s) => [s.Action].flat() as string[]))];
    // Besides the table: its failure DLQ (every function's), traces and logs; no bucket, no key, no parameter.
    expect(actions.filter((a) => !/^(dynamodb|xray|logs):/.test(a)).sort()).toEqual([
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    expect(
      statementsOf('Schedule sweep-retention')
        .filter((s) => [s.Action].flat().some((a: string) => a.startsWith('sqs:')))
        .every((s) => JSON.stringify(s.Resource).includes('WorkersDlq')),
    ).toBe(true);
    // A write function's table grant (test/infra/stacks.test.ts holds its exact list): it deletes by transaction, never BatchWriteItem.
    const table = actions.filter((a) => a.startsWith('dynamodb:'));
    expect(table).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem']));
    expect(table).not.toContain('dynamodb:BatchWriteItem');
  });

  it('tells the functions granted the bucket its name, and no other function', () => {
    const envs = app
      .functions()
      .filter((f) => f.spec.access.buckets)
      .map((f) => f.spec.handler);
    expect(envs.length).toBe(11);
    const workers = app.template(app.stacks.workers);
    workers.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ FILES_BUCKET: Match.anyValue() }) },
      Description: 'Bus rule verify-upload',
    });
    const without = Object.values(workers.findResources('AWS::Lambda::Function')).filter(
      (f: any) => f.Properties.Description === 'Bus rule kb-index',
    ) as any[];
    expect(without[0].Properties.Environment.Variables.FILES_BUCKET).toBeUndefined();
  });
});

describe('downloads through CloudFront', () => {
  const data = () => app.template(app.stacks.data);

  it('a distribution in front of the private bucket, reading it with origin access control: signed URLs only, GET and HEAD, uncached, HTTPS', () => {
    data().hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'https-only',
          AllowedMethods: ['GET', 'HEAD'],
          // CloudFront's managed CachingDisabled: a deleted file is never served from an edge cache.
          CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
          TrustedKeyGroups: [{ Ref: Match.stringLikeRegexp('KeyGroup') }],
          ResponseHeadersPolicyId: { Ref: Match.stringLikeRegexp('Headers') },
        }),
        Origins: [
          Match.objectLike({
            DomainName: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Bucketfiles'), 'RegionalDomainName'] },
            OriginAccessControlId: { 'Fn::GetAtt': [Match.anyValue(), 'Id'] },
          }),
        ],
      }),
    });
    data().hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    // The bucket lets this distribution read its objects, and nothing else public.
    data().hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('answers every download with nosniff, a sandboxing CSP, no framing, no referrer and no caching; attachment wherever the object has no disposition', () => {
    data().hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentTypeOptions: { Override: true },
          ContentSecurityPolicy: { ContentSecurityPolicy: "default-src 'none'; sandbox", Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31_536_000, Override: true }),
        },
        CustomHeadersConfig: {
          Items: [
            { Header: 'Content-Disposition', Value: 'attachment', Override: false },
            { Header: 'Cache-Control', Value: 'private, no-store', Override: true },
          ],
        },
      }),
    });
  });

  it('trusts the public key a custom resource makes at deployment; the private half is a parameter only the key maker writes and the download routes read', () => {
    data().hasResourceProperties('Custom::ParleyDownloadSigningKey', {
      ParameterName: Match.stringLikeRegexp('^/parley/.+/files/download-signing-key$'),
    });
    data().hasResourceProperties('AWS::CloudFront::PublicKey', {
      PublicKeyConfig: Match.objectLike({ EncodedKey: { 'Fn::GetAtt': [Match.stringLikeRegexp('SigningKey'), 'PublicKey'] } }),
    });
    data().hasResourceProperties('AWS::CloudFront::KeyGroup', {
      KeyGroupConfig: Match.objectLike({ Items: [{ Ref: Match.stringLikeRegexp('PublicKey') }] }),
    });
    const ssmStatements = app.all.flatMap((stack) =>
      Object.values(app.template(stack).findResources('AWS::IAM::Policy')).flatMap((p: any) =>
        (p.Properties.PolicyDocument.Statement as any[]).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('ssm:'))),
      ),
    );
    // Read by the three routes that sign downloads (a file, a customers export, a leads export); written by the key maker.
    expect(ssmStatements.map((s) => [s.Action].flat()).sort()).toEqual([
      ['ssm:GetParameter'],
      ['ssm:GetParameter'],
      ['ssm:GetParameter'],
      ['ssm:GetParameter', 'ssm:PutParameter', 'ssm:DeleteParameter'],
    ]);
    for (const s of ssmStatements) expect(JSON.stringify(s.Resource)).toMatch(/:parameter\/parley\/.+\/files\/download-signing-key"/);
    expect(statementsOf('GET /api/v1/files/{id}:').flatMap((s) => [s.Action].flat())).toContain('ssm:GetParameter');
  });

  it('tells the routes that sign downloads (get-file, the export routes) where downloads are and which key signs them, and no other function', () => {
    const withDownloads = app.all.flatMap((stack) =>
      Object.values(app.template(stack).findResources('AWS::Lambda::Function')).filter(
        (f: any) => f.Properties.Environment?.Variables?.FILES_DOWNLOAD_KEY_PARAMETER !== undefined,
      ),
    ) as any[];
    expect(withDownloads.map((f) => String(f.Properties.Description).split(':')[0]).sort()).toEqual([
      'GET /api/v1/contacts/customers/exports/{id}',
      'GET /api/v1/crm/leads/exports/{id}',
      'GET /api/v1/files/{id}',
    ]);
    const vars = withDownloads[0].Properties.Environment.Variables;
    // Each from the data stack: the distribution's domain, the public key's id, the parameter's name.
    expect(JSON.stringify(vars.FILES_DOWNLOAD_URL)).toMatch(
      /^\{"Fn::Join":\["",\["https:\/\/",\{"Fn::ImportValue":".*Downloadsfiles.*"\}\]\]\}$/,
    );
    expect(JSON.stringify(vars.FILES_DOWNLOAD_KEY_PAIR_ID)).toMatch(/"Fn::ImportValue":".*PublicKey/);
    expect(vars.FILES_DOWNLOAD_KEY_PARAMETER).toMatch(/^\/parley\/.+\/files\/download-signing-key$/);
  });
});
