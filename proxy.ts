// Runs before every page: a Content-Security-Policy with a fresh nonce, so the browser runs only
// the app's own scripts (Next.js reads the nonce from the request's policy and puts it on the
// scripts it writes). No inline script or event handler runs without it, and nothing is loaded
// from elsewhere. Styles may be inline (charts set style attributes); styles cannot run code. And a
// server action from anywhere but the app's own pages is refused before it runs.
import { type NextRequest, NextResponse } from "next/server";
import { fromThisApp } from "@/lib/auth/origin";

export function contentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the app's own nonce'd scripts load (its chunks) may run; nothing else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest) {
  // A server action changes state: it must come from this app's pages, as the routes must
  // (lib/auth/origin.ts). Next refuses an Origin of another site, but lets one without any through.
  if (request.method === "POST" && request.headers.has("next-action") && !fromThisApp(request))
    return NextResponse.json(
      { error: "refused: this request did not come from this app's pages (its Origin header)" },
      { status: 403 },
    );
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages only: routes that answer JSON, text or downloads set their own headers; static files need none.
  matcher: [{ source: "/((?!api/|_next/static|_next/image|favicon|trajectories/[^/]+/text).*)" }],
};
