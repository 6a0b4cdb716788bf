// The secret that signs session cookies, for better-auth (auth.ts) and for the server's page cache,
// which checks a cookie's signature as better-auth does before it trusts the session it names.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/**
 * The secret that signs session cookies: BETTER_AUTH_SECRET, or one generated once into
 * .data/auth-secret (mode 600) so a fresh machine needs no setup and sessions survive restarts.
 */
export function authSecret(secret: string | undefined = config().BETTER_AUTH_SECRET): string {
  if (secret) return secret;
  const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), ".data", "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    return fs.readFileSync(file, "utf8").trim();
  }
}

/**
 * The session token a signed cookie value carries, when its signature is this secret's (better-auth's
 * format: token, a dot, and the HMAC-SHA256 of the token in base64), else null.
 */
export function verifiedToken(cookieValue: string, secret: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(cookieValue);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const sent = value.slice(dot + 1);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(sent)) return null;
  const signature = Buffer.from(sent, "base64");
  const expected = crypto.createHmac("sha256", secret).update(token).digest();
  return signature.length === expected.length && crypto.timingSafeEqual(signature, expected) ? token : null;
}
