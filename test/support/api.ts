import { expect } from 'vitest';
import { checkAnswer } from './response-gate';
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Caller {
  token?: string;
  workspaceId?: string;
}

/** A thin HTTP client for tests: real requests to the local gateway, JSON in and out. */
export const client = (baseUrl: string, caller: Caller = {}) => {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(caller.token ? { authorization: `Bearer ${caller.token}` } : {}),
        ...(caller.workspaceId ? { 'x-workspace-id': caller.workspaceId } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    // Files (an .ics) come back as text; everything else the API answers is JSON.
    const json = !/^text\/(?!json)/.test(res.headers.get('content-type') ?? '');
    const answer = { status: res.status, headers: res.headers, body: text ? (json ? JSON.parse(text) : text) : undefined };
    await checkAnswer({ method, path, ...answer });
    return answer;
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call('POST', path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => call('PATCH', path, body, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call('PUT', path, body, headers),
    delete: (path: string, headers?: Record<string, string>) => call('DELETE', path, undefined, headers),
    call,
    as: (other: Caller) => client(baseUrl, other),
  };
};

export type Client = ReturnType<typeof client>;

/**
 * For a poll: the `data` of GET `path`, or undefined on a 429, which tells a client to ask again later
 * (as the poll will); any other answer but 200 fails the test.
 */
export const pollData = async (api: Client, path: string): Promise<any> => {
  const res = await api.get(path);
  if (res.status === 429) return undefined;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

/** The contract's error wrapper as JSON, with the expected status and code, and never a stack trace. */
export const expectError = (res: ApiResponse, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(JSON.stringify(res.body)).not.toMatch(/\.(ts|js):\d+/);
};
