import { Command, CommanderError } from 'commander';
import * as z from 'zod';
import { issueOperatorToken, revokeOperatorToken, workspaceTokens } from '../../shared/auth/operator';
import { allWorkspaces, createWorkspaceWithOwner, renameWorkspaceAsOperator, requireWorkspaces } from '../../shared/workspace/operator';
import { NewTokenInput, WorkspaceName } from '../../shared/domain/auth/token-input';
import { tokenState, type TokenRecord } from '../../shared/domain/auth/token';
import { wholeList } from '../../shared/http/pagination';
import { tokenView } from '../../functions/http/auth/schemas';
import { AppError } from '../../shared/domain/errors';
import { answerOf } from '../../shared/http/refusals';
import { fieldErrors } from '../../shared/http/validation';
import { OBJECT_ID } from '../../shared/ids';
import { addMember, changeMemberRole, listMembers } from '../../shared/workspace/members';
import { MemberStatus, Role, type Member } from '../../shared/domain/auth/member';
import { tenantOf } from '../../shared/domain/auth/tenant';
import { CliError, connect, localRuntime, type TargetOptions } from './target';
import { readable, readLogLines, storyOf, type StoryKey } from '../../infra/local/log-file';
import { dataDir } from '../../infra/local/runtime-file';
import { ParleyError } from '../client/src/index';
import { listen, type ListenOptions } from './listen';
import { tailEvents, type TailOptions } from './events-tail';
import { modeName, openSession, type SessionOptions } from './session';
import { liveOnly, recipes, triggerHelp, untriggerable } from './trigger';
import { uploadPath, type UploadCliOptions } from './files';
import { exportTo, importPath, type ImportCliOptions } from './bulk';
import { direct } from '../../shared/data/unit';

interface Common extends TargetOptions {
  json?: boolean;
}

const parse = <S extends z.ZodType>(schema: S, input: unknown, label = 'value'): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new CliError(
    fieldErrors(result.error, input)
      .errors.map((e) => `${e.path || label}: ${e.message}`)
      .join('\n'),
  );
};

/** `--json` prints what the API's `data` holds for the same resources, in the same views. */
const print = (opts: Common, json: unknown, human: string) =>
  process.stdout.write(`${opts.json ? JSON.stringify(json, null, 2) : human}\n`);

const tokenLine = (t: TokenRecord, now = new Date()) =>
  `${t._id}  ${t.prefix}…  ${tokenState(t, now).padEnd(7)}  ${t.name}  [${t.scopes.join(',')}]${t.expiresAt ? `  expires ${t.expiresAt}` : ''}`;

/** Every leaf command takes the target and output options, so they may follow the subcommand. */
const leaf = (cmd: Command) =>
  cmd
    .option('--json', 'machine-readable output')
    .option('--aws', 'act on the AWS deployment (default credential chain; needs --table or TABLE_NAME)')
    .option('--table <name>', 'DynamoDB table name');

/** Commander passes (...arguments, options, command); actions receive (...arguments, options). */
const run =
  (fn: (...args: never[]) => Promise<void>) =>
  async (...args: unknown[]) => {
    const opts = args.at(-2) as Common;
    connect(opts);
    await (fn as (...a: unknown[]) => Promise<void>)(...args.slice(0, -1));
  };

/** Decided before parsing, so that commander's own usage errors follow it too. */
const jsonOutput = process.argv.includes('--json');

const program = new Command('parley')
  .description(
    'Manage Parley workspaces, members and API tokens, locally (a running `npm start`) or on AWS (--aws); receive and trigger webhooks locally (listen, trigger)',
  )
  .exitOverride()
  .showHelpAfterError(!jsonOutput);
// Under --json, commander stays silent on errors and the catch below reports them as JSON.
if (jsonOutput) program.configureOutput({ outputError: () => {}, writeErr: () => {} });

const workspace = program.command('workspace').description('workspaces');
const Email = z.email().max(254);
leaf(
  workspace
    .command('create')
    .description('create a workspace')
    .requiredOption('--name <text>', 'display name')
    .option('--owner-email <email>', 'also add this person as an active owner (in both modes)'),
).action(
  run(async (opts: Common & { name: string; ownerEmail?: string }) => {
    const name = parse(WorkspaceName, opts.name, '--name');
    const email = opts.ownerEmail === undefined ? undefined : parse(Email, opts.ownerEmail, '--owner-email');
    const { workspace: created, owner } = await createWorkspaceWithOwner(direct, name, email, new Date());
    print(
      opts,
      { workspace: created, ...(owner ? { owner } : {}) },
      `Created workspace ${created._id}  ${created.name}${owner ? `\nOwner ${owner._id}  ${owner.email}` : ''}`,
    );
  }),
);
leaf(workspace.command('list').description('list workspaces')).action(
  run(async (opts: Common) => {
    const all = await allWorkspaces();
    print(
      opts,
      { workspaces: all, pagination: wholeList(all.length) },
      all.map((w) => `${w._id}  ${w.name}`).join('\n') || 'No workspaces.',
    );
  }),
);
leaf(
  workspace.command('rename').description('rename a workspace').argument('<workspaceId>').requiredOption('--name <text>', 'new name'),
).action(
  run(async (id: string, opts: Common & { name: string }) => {
    const updated = await renameWorkspaceAsOperator(direct, id, parse(WorkspaceName, opts.name, '--name'), new Date());
    print(opts, { workspace: updated }, `Renamed workspace ${updated._id} to ${updated.name}`);
  }),
);

const memberLine = (m: Member) => `${m._id}  ${m.role.padEnd(7)}  ${m.status.padEnd(7)}  ${m.email}${m.name ? `  ${m.name}` : ''}`;
const WorkspaceId = z.string().regex(OBJECT_ID, 'Must be a 24-character hex workspace id');

/** The tenant a member command acts in: the workspace's live data, or its test mode with --test. */
const memberTenant = async (opts: { workspace: string; test?: boolean }) => {
  await requireWorkspaces([parse(WorkspaceId, opts.workspace, '--workspace')]);
  return tenantOf(opts.workspace, !opts.test);
};
const member = program.command('member').description('workspace members');
const memberLeaf = (cmd: Command) =>
  leaf(cmd.requiredOption('--workspace <id>', 'workspace id').option('--test', "the workspace's test mode instead of live"));
memberLeaf(
  member
    .command('invite')
    .description('invite a member')
    .requiredOption('--email <email>', 'their email')
    .option('--name <text>', 'display name')
    .option('--role <role>', `one of ${Role.options.join(', ')}`, 'agent'),
).action(
  run(async (opts: Common & { workspace: string; test?: boolean; email: string; name?: string; role: string }) => {
    const tenant = await memberTenant(opts);
    const input = { email: parse(Email, opts.email, '--email'), name: opts.name, role: parse(Role, opts.role, '--role') };
    const invited = await addMember(direct, tenant, input, new Date());
    print(opts, { member: invited }, `Invited ${memberLine(invited)}`);
  }),
);
memberLeaf(
  member
    .command('list')
    .description("list a workspace's members")
    .option('--status <status>', `one of ${MemberStatus.options.join(', ')}`),
).action(
  run(async (opts: Common & { workspace: string; test?: boolean; status?: string }) => {
    const tenant = await memberTenant(opts);
    const status = opts.status === undefined ? undefined : parse(MemberStatus, opts.status, '--status');
    const members: Member[] = [];
    let cursor: string | undefined;
    do {
      const page = await listMembers(tenant, { status }, { limit: 100, cursor });
      members.push(...page.members);
      cursor = page.nextCursor;
    } while (cursor);
    print(opts, { members, pagination: wholeList(members.length) }, members.map(memberLine).join('\n') || 'No members.');
  }),
);
memberLeaf(
  member
    .command('role')
    .description("change a member's role")
    .argument('<memberId>')
    .requiredOption('--role <role>', `one of ${Role.options.join(', ')}`),
).action(
  run(async (id: string, opts: Common & { workspace: string; test?: boolean; role: string }) => {
    const tenant = await memberTenant(opts);
    const role = parse(Role, opts.role, '--role');
    const now = new Date();
    const changed = await changeMemberRole(
      direct,
      tenant,
      parse(z.string().regex(OBJECT_ID, 'Must be a 24-character hex member id'), id, '<memberId>'),
      role,
      now,
    );
    print(opts, { member: changed }, `Member ${memberLine(changed)}`);
  }),
);

const token = program.command('token').description('API tokens');
leaf(
  token
    .command('create')
    .description('create an API token; its value is printed once and never again')
    .requiredOption('--workspace <id...>', 'workspace the token may access (repeatable)')
    .requiredOption('--scopes <list>', 'comma-separated scopes, e.g. inbox:read,webhooks:write or admin:all')
    .requiredOption('--name <text>', 'descriptive label')
    .option('--expires <iso8601>', 'expiry date-time, e.g. 2027-01-31T00:00:00Z')
    .option('--test', "test-mode token (sk_test_): works on its workspaces' test-mode sandbox, never on live data"),
).action(
  run(async (opts: Common & { workspace: string[]; scopes: string; name: string; expires?: string; test?: boolean }) => {
    const input = parse(NewTokenInput(new Date()), {
      name: opts.name,
      workspaceIds: opts.workspace,
      scopes: opts.scopes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      livemode: !opts.test,
      expiresAt: opts.expires,
    });
    const now = new Date();
    const { token: value, record } = await issueOperatorToken(direct, input, now);
    print(
      opts,
      { token: { ...tokenView(record, now), token: value } },
      `Created token ${record._id} (${record.name})\n\n  ${value}\n\nStore it now: it is shown only this once and cannot be recovered.`,
    );
  }),
);
leaf(
  token.command('list').description("list a workspace's tokens (never their values)").requiredOption('--workspace <id>', 'workspace id'),
).action(
  run(async (opts: Common & { workspace: string }) => {
    const tokens = await workspaceTokens(parse(WorkspaceId, opts.workspace, '--workspace'));
    const now = new Date();
    print(
      opts,
      { tokens: tokens.map((t) => tokenView(t, now)), pagination: wholeList(tokens.length) },
      tokens.map((t) => tokenLine(t, now)).join('\n') || 'No tokens.',
    );
  }),
);
leaf(token.command('revoke').description('revoke a token; effective on its very next request').argument('<tokenId>')).action(
  run(async (id: string, opts: Common) => {
    const now = new Date();
    const revoked = await revokeOperatorToken(direct, id, now);
    print(opts, { token: tokenView(revoked, now) }, `Revoked token ${revoked._id} (${revoked.name}) at ${revoked.revokedAt}`);
  }),
);

/** The data folder of the running Parley, else PARLEY_DATA_DIR or `.data`: logs stay readable once it stops. */
const logDir = () => {
  try {
    return localRuntime().dataDir;
  } catch {
    return dataDir();
  }
};

program
  .command('logs')
  .description("the local runtime's log lines about one request, event or webhook delivery, and what it led to")
  .option('--request <id>', 'an X-Request-Id: the request, its events, their deliveries, runs and sends')
  .option('--event <id>', 'an event id: its fan-out, deliveries and the work it triggered')
  .option('--delivery <id>', 'a webhook delivery id: its attempts')
  .option('--json', 'the lines as stored (JSON, one a line)')
  .action((opts: { request?: string; event?: string; delivery?: string; json?: boolean }) => {
    const asked = (
      [
        ['requestId', opts.request],
        ['eventId', opts.event],
        ['deliveryId', opts.delivery],
      ] as [StoryKey, string | undefined][]
    ).filter(([, id]) => id);
    if (asked.length !== 1) throw new CliError('name exactly one of --request, --event, --delivery');
    const [key, id] = asked[0]!;
    const lines = storyOf(
      readLogLines(logDir(), () => true),
      key,
      id!,
    );
    for (const line of lines) process.stdout.write(`${opts.json ? JSON.stringify(line) : readable(line)}\n`);
  });

/** The options of the commands that act through the running Parley's API as one workspace. */
const apiLeaf = (cmd: Command) =>
  cmd
    .option('--workspace <id>', "the workspace (default: the only one there is, or the token's only one)")
    .option('--live', "the workspace's live data (default: its test mode)")
    .option('--token <token>', 'act as this API token (default: PARLEY_TOKEN, else a short-lived token of its own, revoked on exit)');

apiLeaf(
  program
    .command('listen')
    .description(
      'receive webhooks locally: an HTTPS receiver with a subscription of its own that prints each verified event, until stopped',
    )
    .option('--events <list>', 'comma-separated event types or patterns such as inbox.* (default: every event)')
    .option('--forward-to <url>', 'also POST each verified event, with its headers, to this URL')
    .option('--json', "print each event's full payload, one JSON object a line"),
).action(async (opts: SessionOptions & ListenOptions) => {
  await listen(await openSession(opts, ['webhooks:read', 'webhooks:write'], 'listen'), opts);
});

apiLeaf(
  program
    .command('events')
    .description("the workspace's events log")
    .command('tail')
    .description('print the events as they happen, through the realtime socket (resumes after a drop without a gap), until stopped')
    .option('--types <list>', 'comma-separated event types or patterns such as inbox.* (default: every event)')
    .option('--json', 'print each event whole, one JSON object a line'),
).action(async (opts: SessionOptions & TailOptions) => {
  // Its own token reads every category (auth.* needs admin:all); revoked on exit.
  const session = await openSession(opts, ['admin:all'], 'events tail');
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop.abort());
  try {
    await tailEvents(session, opts, stop.signal);
  } finally {
    await session.close();
  }
});

const importCommand = program.command('import').description('import customers or leads from a CSV (a header row; UTF-8)');
for (const kind of ['customers', 'leads'] as const) {
  apiLeaf(
    importCommand
      .command(kind)
      .description(`upload a CSV of ${kind} and wait for the import's counts`)
      .argument('<file.csv>', 'the CSV (at most 50 MiB)')
      .option('--id-property <field>', 'customers: the field a row is matched by, email or phone', 'email')
      .option('--pipeline <id>', 'leads: the pipeline every row goes into')
      .option('--json', 'print the finished import as JSON'),
  ).action(async (path: string, opts: SessionOptions & ImportCliOptions & { json?: boolean }) => {
    if (opts.idProperty !== 'email' && opts.idProperty !== 'phone') throw new CliError('--id-property is email or phone');
    const session = await openSession(
      opts,
      kind === 'customers' ? ['contacts:read', 'contacts:write'] : ['crm:read', 'crm:create'],
      `import ${kind}`,
    );
    try {
      const job = await importPath(session, kind, path, opts);
      const { rows, created, updated, unchanged, failed } = job.counts;
      print(
        opts,
        job,
        `Import ${job._id} completed: ${rows} rows, ${created} created, ${updated} updated, ${unchanged} unchanged, ${failed} failed`,
      );
    } finally {
      await session.close();
    }
  });
}

const exportCommand = program.command('export').description('export customers or leads as CSV to stdout');
for (const kind of ['customers', 'leads'] as const) {
  apiLeaf(
    exportCommand
      .command(kind)
      .description(`write every ${kind === 'customers' ? 'customer' : 'lead'} the filters select as CSV to stdout`)
      .option('--filter <name=value...>', "the list's filters, e.g. --filter tagId=… (repeatable)"),
  ).action(async (opts: SessionOptions & { filter?: string[] }) => {
    const filter = Object.fromEntries(
      (opts.filter ?? []).map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new CliError(`--filter takes name=value, not ${pair}`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    );
    const session = await openSession(opts, [kind === 'customers' ? 'contacts:read' : 'crm:read'], `export ${kind}`);
    try {
      await exportTo(session, kind, filter, process.stdout);
    } finally {
      await session.close();
    }
  });
}

apiLeaf(
  program
    .command('trigger')
    .description('make a real change through the API that emits an event of this type (and whatever it needs first)')
    .argument('<eventType>', 'a catalog event type, e.g. inbox.conversation.created')
    .option('--json', 'print what was triggered as JSON')
    .addHelpText('after', () => `\n${triggerHelp()}`),
).action(async (type: string, opts: SessionOptions & { json?: boolean }) => {
  const recipe = recipes[type];
  if (!recipe)
    throw new CliError(
      untriggerable[type] ? `${type} cannot be triggered: ${untriggerable[type]}` : `Unknown event type: ${type}. ${triggerHelp()}`,
    );
  if (liveOnly.has(type) && !opts.live)
    throw new CliError(
      `${type} is emitted in live mode only (the workspace is shared by both modes): add --live, and listen with --live to see it`,
    );
  const session = await openSession(opts, ['admin:all'], `trigger ${type}`);
  try {
    await recipe(session.api, session.runtime);
  } finally {
    await session.close();
  }
  const done = { eventType: type, workspaceId: session.workspaceId, livemode: session.livemode };
  print(opts, done, `Triggered ${type} in workspace ${session.workspaceId} (${modeName(session)})`);
});

apiLeaf(
  program
    .command('files')
    .description('files on messages')
    .command('upload')
    .description('upload a file (straight to storage, with a presigned POST) and wait until it is verified ready')
    .argument('<path>', 'the file to upload (at most 25 MiB)')
    .option('--type <contentType>', 'its content type (default: from its extension)')
    .option('--name <name>', 'its name (default: the file name of <path>)')
    .option('--json', 'print the ready file as JSON'),
).action(async (path: string, opts: SessionOptions & UploadCliOptions & { json?: boolean }) => {
  const session = await openSession(opts, ['inbox:read', 'inbox:write'], 'files upload');
  try {
    const file = await uploadPath(session, path, opts);
    print(opts, file, `${file._id}  ${file.name}  ${file.contentType}  ${file.size} bytes  ready`);
  } finally {
    await session.close();
  }
});

const fail = (message: string, exitCode = 1) => {
  process.stderr.write(jsonOutput ? `${JSON.stringify({ error: { message } })}\n` : `error: ${message}\n`);
  process.exit(exitCode);
};

/** Commander's usage errors: it has printed them itself, except under --json. */
const usageError = (error: CommanderError) => {
  if (error.exitCode === 0) process.exit(0);
  if (!jsonOutput) process.exit(2);
  fail(error.message.replace(/^error: /, ''), 2);
};

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const refused = answerOf(error);
  if (error instanceof CommanderError) usageError(error);
  else if (refused) fail(refused.message);
  else if (error instanceof CliError || error instanceof AppError || error instanceof ParleyError) fail(error.message);
  else fail(`unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
}
