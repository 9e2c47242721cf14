import type { ServerResponse } from 'node:http';
import { buildSite, siteKey, type Site } from '../site/build';

let site: Site | undefined;

/**
 * The local stand-in for CloudFront's static origin: `/docs` and `/dashboard` from the site build (made on
 * the first such request). Answers false for any other path, which the API routes then take.
 */
export const serveSite = async (method: string, path: string, res: ServerResponse): Promise<boolean> => {
  const key = siteKey(path);
  if (!key || (method !== 'GET' && method !== 'HEAD')) return false;
  site ??= buildSite();
  const file = site.get(key);
  if (!file) return false;
  res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length, 'Cache-Control': 'no-cache' });
  res.end(method === 'HEAD' ? undefined : file.body);
  return true;
};
