// Who views a kept page, as better-auth would say: a signed cookie of a live session, or a live share link.
import type { IncomingMessage } from "node:http";
import { verifiedToken } from "./secret";

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

/** Each request's session token, checked once (an HMAC) however often it is asked for. */
const tokens = new WeakMap<IncomingMessage, string | null>();

export function sessionToken(req: IncomingMessage, secret: string): string | null {
  let token = tokens.get(req);
  if (token === undefined) {
    const raw = req.headers.cookie?.match(SESSION_COOKIE)?.[1];
    token = raw ? verifiedToken(raw, secret) : null;
    tokens.set(req, token);
  }
  return token;
}

/** The viewer of session `token` and the report of link `hash`, as two columns of one statement (decision 44). */
export const viewerColumns = (token: string, hash: string) => `
  (SELECT u.id || '/' || coalesce(u.role::text, '') FROM session s JOIN "user" u ON u.id = s."userId"
    WHERE s.token = ${token} AND s."expiresAt" > now()) AS viewer,
  (SELECT 'link-of-report-' || "reportId" FROM report_link
    WHERE "tokenHash" = ${hash} AND "revokedAt" IS NULL AND ("expiresAt" IS NULL OR "expiresAt" > now())) AS link`;
