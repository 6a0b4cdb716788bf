// Whom the page cache keeps a page for: the viewer better-auth would see (the cookie's signature
// checked), and on a shared report's link, each viewer apart (its header names them).
import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { auth } from "@/lib/auth/auth";
import { authSecret } from "@/lib/auth/secret";
import { createPerson } from "@/lib/data/people";
import { revokeLink, shareReport } from "@/lib/data/report-links";
import { prepared } from "@/lib/data/sql";
import { db } from "@/lib/db";
import { freezeReport } from "@/lib/work/reports/frozen";
import { type KeptPage, PageCache, STREAM_LAG_MS, sendKept } from "./page-cache";

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
  const cache = new PageCache(prepared, 1024 * 1024, authSecret());

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
    // The key ends with the versions of what the page shows: the frozen reports' alone.
    expect(signedOut).toMatch(/ reports:\d+$/);
    // A link nobody made, and this one once revoked, open no page: nothing is kept for them.
    expect(await cache.keyOf(request(`/r/${"x".repeat(43)}`, cookie))).toBeNull();
    const link = await db().reportLink.findFirstOrThrow({ where: { reportId }, select: { id: true } });
    await revokeLink(researcher, link.id);
    expect(await cache.keyOf(request(path, cookie))).toBeNull();
    // An expired session is nobody, as to better-auth.
    await db().session.updateMany({ where: { userId: p.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await cache.keyOf(request("/results", cookie))).toBeNull();
  });
});

describe("a kept page whose data moved", () => {
  /** A response as Node's server gives one, enough for capture: it records what is sent. */
  const response = () => {
    const listeners: Record<string, () => void> = {};
    return {
      statusCode: 200,
      sent: "",
      write(chunk: string) {
        this.sent += chunk;
        return true;
      },
      end(chunk?: string) {
        if (chunk) this.sent += chunk;
      },
      getHeaders: () => ({ "content-type": "text/html; charset=utf-8" }),
      on(event: string, f: () => void) {
        listeners[event] = f;
      },
      close: () => listeners.close?.(),
    };
  };
  const render = (cache: PageCache, key: string, html: string) => {
    const res = response();
    cache.capture(key, res as never);
    return { finish: () => res.end(html), close: res.close };
  };

  const reader = (token: string, method = "GET") =>
    ({
      method,
      url: "/results",
      headers: { cookie: `better-auth.session_token=${sign(token, authSecret())}` },
    }) as never;
  const key = (viewer: string, path: string, trajectories: number, votes: number, labels = 1) =>
    `${viewer} ${path} labels:${labels},trajectories:${trajectories},votes:${votes}`;

  it("is sent while the page renders afresh, and not once nothing renders it", async () => {
    const cache = new PageCache(prepared, 1024 * 1024, authSecret());
    const me = reader("token-of-u1");
    const [v1, v2, v3] = [1, 2, 3].map((n) => key("u1/RESEARCHER", "/results", n, 1)) as [string, string, string];
    render(cache, v1, "<p>one</p>").finish();
    expect(cache.get(v1)?.body.toString()).toBe("<p>one</p>");
    // Nothing renders the page: a reader of newer data renders it (and sees their own write).
    expect(cache.previous(v2, me)).toBeUndefined();
    const second = render(cache, v2, "<p>two</p>");
    // While it renders, a reader of the same or still newer data gets the page kept before...
    expect(cache.previous(v3, me)?.body.toString()).toBe("<p>one</p>");
    // ...but not another viewer's, nor another page's.
    expect(cache.previous(key("u2/RESEARCHER", "/results", 3, 1), me)).toBeUndefined();
    expect(cache.previous(key("u1/RESEARCHER", "/agreement", 3, 1), me)).toBeUndefined();
    // So does a reader of the very data being rendered: nobody waits for it...
    expect(cache.previous(v2, me)?.body.toString()).toBe("<p>one</p>");
    // ...but whoever wrote since the copy was rendered (another tab of the viewer's), who waits for
    // the render to see their write.
    const wrote = response();
    cache.noteWrites(reader("token-of-u1-writer", "POST"), wrote as never);
    wrote.close();
    expect(cache.previous(v2, reader("token-of-u1-writer"))).toBeUndefined();
    expect(cache.previous(v2, me)?.body.toString()).toBe("<p>one</p>");
    const waiting = cache.pending(v2);
    second.finish();
    expect((await waiting)?.body.toString()).toBe("<p>two</p>");
    // Done: no render under way, so nothing is sent from before.
    expect(cache.previous(v3, me)).toBeUndefined();
    // A render that ends without a page (the client went away) leaves the last page kept as it was.
    const third = render(cache, v3, "");
    expect(cache.previous(key("u1/RESEARCHER", "/results", 4, 1), me)?.body.toString()).toBe("<p>two</p>");
    third.close();
    expect(cache.previous(key("u1/RESEARCHER", "/results", 4, 1), me)).toBeUndefined();
  });

  it("stands for newer votes and labels alone for STREAM_LAG_MS, unless its viewer wrote since", async () => {
    vi.useFakeTimers({ now: new Date("2026-12-02T10:00:00Z"), toFake: ["Date"] });
    try {
      const cache = new PageCache(prepared, 1024 * 1024, authSecret());
      const [me, other] = [reader("token-of-u1"), reader("token-of-u1-other-tab")];
      render(cache, key("u1/RESEARCHER", "/results", 1, 1), "<p>one</p>").finish();
      vi.setSystemTime(Date.now() + STREAM_LAG_MS - 1);
      // Votes moved (a judge run), or labels (annotators), or both: the page kept just under the lag
      // ago stands for them.
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 9), me)?.body.toString()).toBe("<p>one</p>");
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 1, 4), me)?.body.toString()).toBe("<p>one</p>");
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 9, 4), me)?.body.toString()).toBe("<p>one</p>");
      // Anything else moved, with them or alone: rendered afresh.
      expect(cache.previous(key("u1/RESEARCHER", "/results", 2, 9), me)).toBeUndefined();
      expect(cache.previous(key("u1/RESEARCHER", "/results", 2, 1, 4), me)).toBeUndefined();
      // The lag after its render: rendered afresh.
      vi.setSystemTime(Date.now() + 1);
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 9), me)).toBeUndefined();

      render(cache, key("u1/RESEARCHER", "/results", 1, 9), "<p>nine</p>").finish();
      vi.setSystemTime(Date.now() + 10);
      // The viewer's session wrote (a server action ended) after that render: not for that session.
      const write = response();
      cache.noteWrites(reader("token-of-u1", "POST"), write as never);
      // A GET is no write, and a write counts once it has ended.
      cache.noteWrites(reader("token-of-u1-other-tab", "GET"), response() as never);
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 10), me)?.body.toString()).toBe("<p>nine</p>");
      write.close();
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 10), me)).toBeUndefined();
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 10), other)?.body.toString()).toBe("<p>nine</p>");
      // A page rendered after the write stands for that session again.
      vi.setSystemTime(Date.now() + 10);
      render(cache, key("u1/RESEARCHER", "/results", 1, 10), "<p>ten</p>").finish();
      expect(cache.previous(key("u1/RESEARCHER", "/results", 1, 11), me)?.body.toString()).toBe("<p>ten</p>");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a kept page sent again", () => {
  const OLD = "b2xkLW5vbmNlLW9mLTE2Yg==";
  const policy = (nonce: string) => `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`;
  const script = (call: string) => `<script nonce="${OLD}">${call}</script>`;
  const html = `<html>${script("a()")}${"<tr><td>row</td></tr>".repeat(500)}${script("b()")}</html>`;
  /** What sendKept writes: its status, headers and body. */
  const sink = () => {
    const out = { status: 0, headers: {} as Record<string, string>, body: Buffer.alloc(0) as Buffer };
    return {
      out,
      res: {
        writeHead(status: number, headers: Record<string, string>) {
          out.status = status;
          out.headers = headers;
        },
        end(body: Buffer) {
          out.body = body;
        },
      } as never,
    };
  };
  const send = (page: KeptPage, gzip: boolean) => {
    const { out, res } = sink();
    sendKept({ headers: gzip ? { "accept-encoding": "gzip, br" } : {} } as never, res, page, "hit");
    const body = (gzip ? gunzipSync(out.body) : out.body).toString();
    const nonce = /'nonce-([^']+)'/.exec(out.headers["content-security-policy"] ?? "")?.[1] ?? "";
    return { out, body, nonce };
  };

  it("carries a nonce of its own in policy and scripts, gzipped before and after it is compressed once", async () => {
    const cache = new PageCache(prepared, 1024 * 1024, authSecret());
    const res = {
      statusCode: 200,
      write: () => true,
      end: (_chunk?: string) => undefined,
      getHeaders: () => ({ "content-type": "text/html; charset=utf-8", "content-security-policy": policy(OLD) }),
      on: () => undefined,
    };
    const key = "u1/RESEARCHER /results labels:1,trajectories:1,votes:1";
    cache.capture(key, res as never);
    res.end(html);
    const seen = new Set<string>();
    const check = (page: KeptPage, gzip: boolean) => {
      const { out, body, nonce } = send(page, gzip);
      expect(out.status).toBe(200);
      expect(out.headers["content-encoding"]).toBe(gzip ? "gzip" : undefined);
      expect(Number(out.headers["content-length"])).toBe(out.body.length);
      expect(nonce).toHaveLength(24);
      expect(nonce).not.toBe(OLD);
      expect(seen.has(nonce)).toBe(false);
      seen.add(nonce);
      expect(body).toBe(html.replaceAll(OLD, nonce));
    };
    const first = cache.get(key)!;
    expect(first.deflated).toBeUndefined(); // compressed in the background: sent compressed per reader meanwhile
    check(first, true);
    await vi.waitFor(() => expect(cache.get(key)?.deflated).toBeDefined());
    const later = cache.get(key)!;
    expect(later.deflated).toHaveLength(3); // before, between and after the two scripts' nonces
    check(later, true);
    check(later, true);
    check(later, false);
  });
});
