import { issueOperatorToken, revokeOperatorToken, workspaceTokens } from '../../shared/auth/operator';
import { tokenState } from '../../shared/domain/auth/token';
import { allWorkspaces } from '../../shared/workspace/operator';
import type { Scope } from '../../shared/domain/auth/scopes';
import { createParleyClient, type ParleyClient } from '../client/src/index';
import type { RuntimeInfo } from '../../infra/local/runtime-file';
import { DEMO_TOKEN_NAMES } from '../../infra/local/seed';
import { CliError, connect, localRuntime } from './target';
import { chooseWorkspace, type WorkspaceCandidate } from './workspace-choice';
import { direct } from '../../shared/data/unit';

export interface SessionOptions {
  workspace?: string;
  live?: boolean;
  token?: string;
}

/** How the CLI names a session's mode to its user. */
export const modeName = (session: Pick<Session, 'livemode'>) => (session.livemode ? 'live mode' : 'test mode');

/** The API of the running `npm start`, as one workspace in one mode, through a token. */
export interface Session {
  api: ParleyClient;
  runtime: RuntimeInfo;
  workspaceId: string;
  livemode: boolean;
  /** Revokes the token the session made for itself (none when it was given one). */
  close(): Promise<void>;
}

/** A token lasts this long at most, so that one left behind by a killed CLI stops working by itself. */
const SESSION_TOKEN_MS = 24 * 3_600_000;
/** The names of the tokens the CLI makes for itself: `parley listen`, `parley trigger <type>`. */
const SESSION_TOKEN_PREFIX = 'parley ';

const oneWorkspace = (ids: string[], given?: string): string => {
  if (given) {
    if (!ids.includes(given)) throw new CliError(`No such workspace${ids.length ? ` for this token` : ''}: ${given}`);
    return given;
  }
  if (ids.length === 1) return ids[0]!;
  throw new CliError(
    ids.length
      ? `This token reaches ${ids.length} workspaces; name one with --workspace <id>: ${ids.join(', ')}`
      : 'There is no workspace yet: create one with `npx parley workspace create --name <name>`',
  );
};

/** The local workspaces with what tells them apart: whether `npm start` made it, and its usable test-mode tokens. */
const localWorkspaces = async (now: Date): Promise<WorkspaceCandidate[]> =>
  Promise.all(
    (await allWorkspaces()).map(async (w) => {
      const tokens = (await workspaceTokens(w._id)).filter((t) => !t.livemode && tokenState(t, now) === 'active');
      return {
        id: w._id,
        name: w.name,
        demo: tokens.some((t) => t.name === DEMO_TOKEN_NAMES.test),
        testTokens: tokens.filter((t) => !t.name.startsWith(SESSION_TOKEN_PREFIX)).length,
      };
    }),
  );

/**
 * Opens a session on the locally running Parley. With `--token` (or PARLEY_TOKEN) it acts as that token;
 * otherwise it makes a short-lived token of its own with `scopes` (test mode unless `--live`), which
 * `close` revokes: its `auth.token.created` and `auth.token.revoked` events are real events too.
 */
export const openSession = async (opts: SessionOptions, scopes: Scope[], purpose: string): Promise<Session> => {
  const runtime = localRuntime();
  Object.assign(process.env, { DYNAMODB_ENDPOINT: runtime.dynamoEndpoint, TABLE_NAME: runtime.tableName });
  connect({});
  const given = opts.token ?? process.env.PARLEY_TOKEN;
  if (given) {
    const api = createParleyClient({ baseUrl: runtime.baseUrl, token: given });
    const { token } = (await api.get('/auth/token')).data;
    const workspaceId = oneWorkspace(token.workspaceIds, opts.workspace);
    return {
      api: createParleyClient({ baseUrl: runtime.baseUrl, token: given, workspaceId }),
      runtime,
      workspaceId,
      livemode: token.livemode,
      close: async () => {},
    };
  }
  const now = new Date();
  const { workspaceId, why } = chooseWorkspace(await localWorkspaces(now), opts.workspace);
  if (why) process.stderr.write(`Using workspace ${workspaceId}, ${why} (choose another with --workspace <id>).\n`);
  const livemode = opts.live === true;
  const expiresAt = new Date(now.getTime() + SESSION_TOKEN_MS).toISOString();
  const { token, record } = await issueOperatorToken(
    direct,
    { name: `${SESSION_TOKEN_PREFIX}${purpose}`, workspaceIds: [workspaceId], scopes, livemode, expiresAt },
    now,
  );
  return {
    api: createParleyClient({ baseUrl: runtime.baseUrl, token, workspaceId }),
    runtime,
    workspaceId,
    livemode,
    close: async () => {
      await revokeOperatorToken(direct, record._id, new Date());
    },
  };
};
