// What a route handler answers instead of its work: the guard (401, 403) and an expected failure's status.
import { fromThisApp } from "@/lib/auth/origin";
import { type Action, type Actor, can, PermissionDenied } from "@/lib/auth/permissions";
import { actorFrom } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";

/** A route handler's answer to an expected failure (its status and message); anything else is rethrown. */
export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) return Response.json({ error: e.message, code: e.code }, { status: e.status });
  throw e;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The user, or the 401/403 to send; a state change must come from this app's pages (its Origin). */
export async function requireRequest(request: Request, action: Action): Promise<Actor | Response> {
  if (!SAFE_METHODS.has(request.method) && !fromThisApp(request)) {
    return Response.json(
      { error: "refused: this request did not come from this app's pages (its Origin header)" },
      { status: 403 },
    );
  }
  const user = await actorFrom(request.headers);
  if (!user || !can(user.role, action)) return errorResponse(new PermissionDenied(action, user?.role ?? null));
  return user;
}
