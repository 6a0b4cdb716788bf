// Who views a page the server keeps (lib/web/page-cache.ts), known as better-auth knows them: the
// session cookie's signature checked with the app's secret, the session live. A cookie that is not
// the app's names nobody, as better-auth would refuse it too. And the report a share link opens,
// while it opens it (not revoked, not expired).
import type { IncomingMessage } from "node:http";
import { verifiedToken } from "./secret";

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

/** Each request's session token, checked once (an HMAC) however often it is asked for. */
const tokens = new WeakMap<IncomingMessage, string | null>();

/** The session token of a request's cookie, when the app signed it. */
export function sessionToken(req: IncomingMessage, secret: string): string | null {
  let token = tokens.get(req);
  if (token === undefined) {
    const raw = req.headers.cookie?.match(SESSION_COOKIE)?.[1];
    token = raw ? verifiedToken(raw, secret) : null;
    tokens.set(req, token);
  }
  return token;
}

/**
 * Who views, as two columns of a statement: `viewer` (`id/role`) of the live session whose token is
 * parameter `token`, and `link` (the report) of the live share link whose hash is parameter `hash`;
 * null for none. The page cache asks them in the statement that reads the data's versions too: one
 * round trip a kept page (decision 44).
 */
export const viewerColumns = (token: string, hash: string) => `
  (SELECT u.id || '/' || coalesce(u.role::text, '') FROM session s JOIN "user" u ON u.id = s."userId"
    WHERE s.token = ${token} AND s."expiresAt" > now()) AS viewer,
  (SELECT 'link-of-report-' || "reportId" FROM report_link
    WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())) AS link`;
