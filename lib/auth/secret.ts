// The secret signing session cookies, for better-auth and the page cache's own check of them.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/config";

/** The session cookies' secret: BETTER_AUTH_SECRET, or one generated once into .data/auth-secret (mode 600). */
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

/** The session token a cookie carries when signed with this secret (better-auth's token.HMAC), else null. */
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
