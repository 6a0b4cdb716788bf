import "server-only";
// The API under /api/v1: bearer tokens only (cookies never read), scope and current role checked; JSON errors.
import { ZodError } from "zod";
import { type Action, type Actor, can } from "@/lib/auth/permissions";
import { admitToken } from "@/lib/data/tokens";
import { bearerToken, type TokenScope } from "@/lib/domain/tokens";
import { AppError, type ErrorCode, errorText } from "@/lib/errors";
import type { ApiErrorBody } from "./v1-spec";

const scopeFor = (action: Action): TokenScope => (action === "imports:write" ? "import" : "read");

/** An API error: its status, and the body every client can read the same way. */
export function apiError(
  status: number,
  code: ErrorCode | "RATE_LIMITED" | "BUSY",
  message: string,
  headers?: HeadersInit,
) {
  const body: ApiErrorBody = { error: { code, message } };
  return Response.json(body, { status, headers });
}

/** A route: `handle` runs when the token may do `action`; an AppError it throws becomes its status. */
export function v1Route<Ctx = unknown>(
  action: Action,
  handle: (request: Request, actor: Actor, ctx: Ctx) => Promise<Response>,
) {
  return async (request: Request, ctx: Ctx): Promise<Response> => {
    const token = bearerToken(request.headers.get("authorization"));
    if (!token)
      return apiError(401, "UNAUTHENTICATED", "send a personal access token: Authorization: Bearer TOKEN", {
        "www-authenticate": "Bearer",
      });
    const use = await admitToken(token);
    if (!use.ok)
      return use.status === 429
        ? apiError(429, "RATE_LIMITED", use.message, { "retry-after": String(use.retryAfter ?? 60) })
        : apiError(401, "UNAUTHENTICATED", use.message, { "www-authenticate": 'Bearer error="invalid_token"' });
    const scope = scopeFor(action);
    if (!use.scopes.includes(scope)) return apiError(403, "FORBIDDEN", `this token has no "${scope}" scope`);
    if (!can(use.actor.role, action))
      return apiError(403, "FORBIDDEN", `${use.actor.role.toLowerCase()} may not ${action.replace(":", " ")}`);
    try {
      return await handle(request, use.actor, ctx);
    } catch (e) {
      if (e instanceof AppError) return apiError(e.status, e.code, e.message);
      if (e instanceof ZodError) return apiError(400, "BAD_INPUT", errorText(e));
      throw e;
    }
  };
}
