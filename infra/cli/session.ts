import { createToken, revokeToken } from '../../shared/data/tokens';
import { listWorkspaces } from '../../shared/data/workspaces';
import type { Scope } from '../../shared/domain/auth/scopes';
import { createParleyClient, type ParleyClient } from '../../packages/client/src/index';
import type { RuntimeInfo } from '../local/runtime-file';
import { CliError, connect, localRuntime } from './target';

export interface SessionOptions {
  workspace?: string;
  live?: boolean;
  token?: string;
}

/** The API of the running `npm start`, as one workspace in one mode, through a token. */
export interface Session {
  api: ParleyClient;
  runtime: RuntimeInfo;
  workspaceId: string;
  mode: 'live' | 'test';
  /** Revokes the token the session made for itself (none when it was given one). */
  close(): Promise<void>;
}

/** A token lasts this long at most, so that one left behind by a killed CLI stops working by itself. */
const SESSION_TOKEN_MS = 24 * 3_600_000;

const oneWorkspace = (ids: string[], given?: string): string => {
  if (given) {
    if (!ids.includes(given)) throw new CliError(`No such workspace${ids.length ? ` for this token` : ''}: ${given}`);
    return given;
  }
  if (ids.length === 1) return ids[0]!;
  throw new CliError(
    ids.length
      ? `Name the workspace with --workspace: one of ${ids.join(', ')}`
      : 'There is no workspace yet: create one with `npx parley workspace create --name <name>`',
  );
};

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
      mode: token.environment,
      close: async () => {},
    };
  }
  const workspaceId = oneWorkspace(
    (await listWorkspaces()).map((w) => w._id),
    opts.workspace,
  );
  const mode = opts.live ? 'live' : 'test';
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_TOKEN_MS).toISOString();
  const { token, record } = await createToken(
    { name: `parley ${purpose}`, workspaceIds: [workspaceId], scopes, environment: mode, expiresAt },
    now,
  );
  return {
    api: createParleyClient({ baseUrl: runtime.baseUrl, token, workspaceId }),
    runtime,
    workspaceId,
    mode,
    close: async () => {
      await revokeToken(record._id);
    },
  };
};
