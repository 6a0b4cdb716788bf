// better-auth's endpoints the app stands behind; self-service renames, email changes and deletion answer 404.
import { toNextJsHandler } from "better-auth/next-js";
import { auth } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";

const AUTH_PATHS: Record<"GET" | "POST", readonly string[]> = {
  GET: ["/get-session", "/list-sessions", "/ok", "/error"],
  POST: [
    "/sign-in/email",
    "/sign-out",
    "/change-password",
    "/revoke-session",
    "/revoke-sessions",
    "/revoke-other-sessions",
  ],
};

const pathOf = (request: Request) => new URL(request.url).pathname.replace(/^\/api\/auth/, "").replace(/\/$/, "");

const notFound = () => Response.json({ error: "no such endpoint" }, { status: 404 });

/** The most a change-password body may hold (two passwords and a flag). */
const MAX_BODY = 16 * 1024;

/** A change-password request that ends the person's other sessions, whatever it asked. */
async function revokingOthers(request: Request): Promise<Request | Response> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY)
    return Response.json({ error: "the request is too large" }, { status: 413 });
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return Response.json({ error: "send a JSON object" }, { status: 400 });
  }
  if (text.length > MAX_BODY || !body || typeof body !== "object" || Array.isArray(body))
    return Response.json({ error: "send a JSON object" }, { status: 400 });
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, {
    method: "POST",
    headers,
    body: JSON.stringify({ ...body, revokeOtherSessions: true }),
  });
}

export async function GET(request: Request) {
  return AUTH_PATHS.GET.includes(pathOf(request)) ? toNextJsHandler(auth()).GET(request) : notFound();
}

export async function POST(request: Request) {
  const path = pathOf(request);
  if (!AUTH_PATHS.POST.includes(path)) return notFound();
  const sent = path === "/change-password" ? await revokingOthers(request) : request;
  return sent instanceof Response ? sent : toNextJsHandler(auth()).POST(sent);
}
