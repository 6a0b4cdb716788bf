// Whom the page cache keeps a page for: the viewer better-auth would see (the cookie's signature
// checked), and on a shared report's link, each viewer apart (its header names them).
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { auth } from "@/lib/auth/auth";
import { authSecret } from "@/lib/auth/secret";
import { freezeReport, shareReport } from "@/lib/data/frozen-reports";
import { createPerson } from "@/lib/data/people";
import { db } from "@/lib/db";
import { PageCache } from "./page-cache";

const request = (url: string, cookie?: string) =>
  ({ method: "GET", url, headers: cookie ? { cookie } : {} }) as unknown as IncomingMessage;

/** A session cookie as better-auth sets it at sign-in: name=token.signature, URI-encoded. */
async function signedInCookie(email: string, password: string): Promise<string> {
  const res = await auth().api.signInEmail({ body: { email, password }, asResponse: true });
  const set = res.headers.get("set-cookie") ?? "";
  const cookie = /better-auth\.session_token=[^;]+/.exec(set)?.[0];
  if (!cookie) throw new Error(`no session cookie in ${set}`);
  return cookie;
}

const sign = (token: string, secret: string) =>
  encodeURIComponent(`${token}.${crypto.createHmac("sha256", secret).update(token).digest("base64")}`);

describe("the page cache's viewer", () => {
  const cache = new PageCache(() => db(), 1024 * 1024, authSecret());

  it("is the session better-auth signed, and nobody for an unsigned or forged cookie", async () => {
    const p = await createPerson("system", {
      handle: "pc-res",
      email: "pc-res@example.org",
      role: "RESEARCHER",
      password: "password-1",
    });
    const cookie = await signedInCookie("pc-res@example.org", "password-1");
    expect(await cache.keyOf(request("/results", cookie))).toMatch(new RegExp(`^${p.id}/RESEARCHER /results `));
    const { token } = await db().session.findFirstOrThrow({ where: { userId: p.id }, select: { token: true } });
    // The raw token without its signature, with a signature of another secret, or a signature cut short.
    const forged = [
      token,
      `${token}.`,
      sign(token, "not the app's secret, but long enough"),
      sign(token, authSecret()).slice(0, -6),
    ];
    for (const value of forged)
      expect(await cache.keyOf(request("/results", `better-auth.session_token=${value}`)), value).toBeNull();
    // The same token rightly signed is the viewer again.
    expect(await cache.keyOf(request("/results", `better-auth.session_token=${sign(token, authSecret())}`))).toMatch(
      new RegExp(`^${p.id}/RESEARCHER `),
    );
  });

  it("keeps a shared report's page for each viewer apart, a signed-out visitor included", async () => {
    const p = await db().user.findFirstOrThrow({ where: { handle: "pc-res" }, select: { id: true } });
    const researcher = { id: p.id, handle: "pc-res", role: "RESEARCHER" as const };
    const reportId = await freezeReport(researcher, "shared");
    const path = `/r/${await shareReport(researcher, reportId, null)}`;
    const cookie = await signedInCookie("pc-res@example.org", "password-1");
    const asResearcher = await cache.keyOf(request(path, cookie));
    const signedOut = await cache.keyOf(request(path));
    const forged = await cache.keyOf(request(path, "better-auth.session_token=abc.def"));
    expect(asResearcher).toContain(`${p.id}/RESEARCHER`);
    expect(signedOut).toContain(" signed-out ");
    expect(forged).toBe(signedOut);
    expect(asResearcher).not.toBe(signedOut);
  });
});
