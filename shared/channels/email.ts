import { isIP } from 'node:net';
import type { z } from 'zod';
import type { EmailConfig } from '../domain/channels/account';
import { emailMessageId } from '../domain/channels/email-threading';
import { failureReasonOf } from '../domain/webhooks/classify';
import { config } from '../config';
import { pinnedAddress } from '../outbound/https';
import { readObject } from '../aws/s3';
import { objectKey } from '../domain/files/file';
import { isLegacy, type Attachment } from '../domain/inbox/message';
import type { Provider } from './provider';

const TIMEOUT_MS = 10_000;

interface SmtpError {
  code?: string;
  responseCode?: number;
}

/** SMTP's answer as a delivery outcome: 5xx is permanent, 4xx and transport errors are retried, a refused login is the account's. */
const failure = (error: SmtpError) => {
  if (error.code === 'EAUTH') return { ok: false as const, reason: 'smtp_auth_failed', retryable: false, accountError: true };
  if (error.responseCode && error.responseCode >= 500)
    return { ok: false as const, reason: `smtp_${error.responseCode}`, retryable: false };
  if (error.responseCode) return { ok: false as const, reason: `smtp_${error.responseCode}`, retryable: true };
  return { ok: false as const, reason: error.code === 'ETIMEDOUT' ? 'timeout' : 'connection_error', retryable: true };
};

/**
 * The `email` channel: one SMTP submission per send (nodemailer) to the host's pinned address. The
 * Message-ID is derived from the send's key, so a retried submission carries the same id and mail systems
 * can drop the repeat; replies thread with In-Reply-To and References.
 */
export const emailProvider: Provider = {
  send: async (account, secrets, outbound) => {
    const c = account.config as z.output<typeof EmailConfig>;
    if (!outbound.to.email) return { ok: false, reason: 'no_email_address', retryable: false };
    // The host was checked when the account was saved; it is resolved and checked again here, and the
    // connection goes to exactly that address (TLS still verifies the name), so DNS rebinding cannot
    // point a send at a private address.
    let address: string;
    try {
      address = await pinnedAddress(c.host, config().WEBHOOK_ALLOW_PRIVATE_TARGETS);
    } catch (error) {
      const reason = failureReasonOf((error as { code?: string }).code);
      return reason === 'ssrf_blocked'
        ? { ok: false, reason, retryable: false, accountError: true }
        : { ok: false, reason, retryable: true };
    }
    // The SMTP transport alone: nodemailer's `createTransport` carries every other transport too (SES, sendmail, pools).
    const options = {
      host: address,
      servername: isIP(c.host) ? undefined : c.host,
      port: c.port,
      secure: c.secure,
      auth: c.username ? { user: c.username, pass: secrets.smtpPassword } : undefined,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    };
    // Loaded at the first email send: the channel and broadcast senders start without nodemailer (216 KB).
    const [{ default: Mail }, { default: SMTPTransport }] = await Promise.all([
      import('nodemailer/lib/mailer'),
      import('nodemailer/lib/smtp-transport'),
    ]);
    const transport = new Mail(new SMTPTransport(options), options);
    const messageId = emailMessageId(outbound.key, c.from);
    try {
      await transport.sendMail({
        from: { name: account.name, address: c.from },
        to: outbound.to.name ? { name: outbound.to.name, address: outbound.to.email } : outbound.to.email,
        subject: outbound.subject ?? account.name,
        // A legacy link (a message stored before files existed) still goes as a link: fetching it would let a message make Parley fetch any URL.
        text: [outbound.content ?? '', ...outbound.attachments.filter(isLegacy).map((a) => `${a.name}: ${a.url}`)]
          .filter(Boolean)
          .join('\n\n'),
        // Each file is a MIME part streamed from the bucket, never read whole into memory here.
        attachments: await Promise.all(
          outbound.attachments
            .filter((a): a is Attachment => !isLegacy(a))
            .map(async (a) => ({
              filename: a.name,
              contentType: a.contentType,
              content: await readObject(objectKey(outbound.tenant, a.fileId)),
            })),
        ),
        messageId,
        ...(outbound.references.length > 0 ? { inReplyTo: outbound.references.at(-1), references: outbound.references } : {}),
      });
      return { ok: true, providerMessageId: messageId, writes: [], receipts: [] };
    } catch (error) {
      return failure(error as SmtpError);
    } finally {
      transport.close();
    }
  },
};
