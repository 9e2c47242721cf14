import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { checkSignedUrl, type SignedUrlRefusal } from '../../shared/domain/files/signed-url';
import type { DownloadHeaders } from '../../functions/wiring/types';
import { errorXml, type S3Refusal } from './s3-post-policy';

/**
 * The local stand-in for the CloudFront distribution in front of a bucket's downloads: it serves GET and HEAD
 * only to a canned-policy signed URL of a key in its key group (checked as CloudFront checks it), reads the
 * object from the S3 stand-in as origin access control does, and answers with the response headers policy of
 * the wiring, so a download carries locally exactly the headers it carries on AWS.
 */
export interface DownloadsCdnOptions {
  /** The S3 stand-in (path-style) and the bucket this distribution serves. */
  origin: string;
  bucket: string;
  /** The key group: each trusted key pair id and its public key (PEM). */
  trustedKeys: ReadonlyMap<string, string>;
  headers: DownloadHeaders;
  port?: number;
  now?: () => Date;
}

export interface DownloadsCdn {
  endpoint: string;
  stop(): Promise<void>;
}

const REFUSALS: Record<SignedUrlRefusal, S3Refusal> = {
  missing_key: { status: 403, code: 'MissingKey', message: 'Missing Key-Pair-Id query parameter or cookie value' },
  unknown_key: { status: 403, code: 'InvalidKey', message: 'Unknown Key' },
  bad_signature: { status: 403, code: 'AccessDenied', message: 'Access denied' },
  expired: { status: 403, code: 'AccessDenied', message: 'Access denied' },
};

/** What CloudFront passes on of S3's answer. */
const FORWARDED = ['content-type', 'content-length', 'content-range', 'content-disposition', 'etag', 'last-modified', 'accept-ranges'];

/** The response headers policy applied to the origin's headers. */
const withDownloadHeaders = (policy: DownloadHeaders, origin: Record<string, string>): Record<string, string> => {
  const headers = { ...origin };
  if (policy.noSniff) headers['x-content-type-options'] = 'nosniff';
  headers['content-security-policy'] = policy.contentSecurityPolicy;
  headers['x-frame-options'] = policy.frameOptions;
  headers['referrer-policy'] = policy.referrerPolicy;
  for (const { header, value, override } of policy.custom) {
    const name = header.toLowerCase();
    if (override || headers[name] === undefined) headers[name] = value;
  }
  return headers;
};

const refuse = (res: ServerResponse, r: S3Refusal, resource: string) => {
  res.writeHead(r.status, { 'content-type': 'application/xml' });
  res.end(errorXml(r, resource));
};

export const startDownloadsCdn = async (opts: DownloadsCdnOptions): Promise<DownloadsCdn> => {
  const now = opts.now ?? (() => new Date());
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(
        res,
        {
          status: 403,
          code: 'MethodNotAllowed',
          message: 'This distribution is not configured to allow the HTTP request method that was used for this request.',
        },
        url.pathname,
      );
    const refusal = checkSignedUrl(url, opts.trustedKeys, Math.floor(now().getTime() / 1000));
    if (refusal) return refuse(res, REFUSALS[refusal], url.pathname);
    // Origin access control: CloudFront reads the object itself; the viewer's query and headers stay at the edge.
    const origin = httpRequest(
      new URL(`/${opts.bucket}${url.pathname}`, opts.origin),
      { method: req.method, headers: req.headers.range ? { range: req.headers.range } : {} },
      (answer) => {
        const status = answer.statusCode ?? 502;
        // Origin access control grants s3:GetObject alone: S3 answers a key it does not have with 403, not 404.
        if (status === 404) {
          answer.resume();
          return refuse(res, { status: 403, code: 'AccessDenied', message: 'Access Denied' }, url.pathname);
        }
        const forwarded = Object.fromEntries(
          FORWARDED.flatMap((h) => (typeof answer.headers[h] === 'string' ? [[h, answer.headers[h] as string]] : [])),
        );
        res.writeHead(status, status < 300 ? withDownloadHeaders(opts.headers, forwarded) : forwarded);
        answer.pipe(res);
      },
    );
    origin.on('error', (error) => {
      if (!res.headersSent) refuse(res, { status: 502, code: 'OriginError', message: String(error) }, url.pathname);
      else res.destroy();
    });
    origin.end();
  };
  const server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
