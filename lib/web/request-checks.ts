// Requests refused in front of Next, which would answer them 500.
import type { ApiErrorBody } from "@/lib/api/v1-spec";

export function unreadablePath(target: string): string | null {
  const path = target.split(/[?#]/, 1)[0]!;
  for (const segment of path.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `the address holds percent-encoding that is not UTF-8 (${segment.slice(0, 40)})`;
    }
    if (/[\u0000-\u001f\u007f]/.test(decoded)) return "the address holds a control character";
  }
  return null;
}

/** The most a server action's body may hold: Next's own limit (serverActions.bodySizeLimit, 1 MB). */
export const ACTION_BODY_LIMIT = 1024 * 1024;

/** Why a server action's request is refused before Next reads it (its status and reason), or null. */
export function actionBodyRefusal(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): { status: 411 | 413; reason: string } | null {
  if (method !== "POST" || !headers["next-action"]) return null;
  const length = headers["content-length"];
  if (typeof length !== "string" || !/^\d+$/.test(length))
    return { status: 411, reason: "a form is sent with its length (Content-Length)" };
  if (Number(length) > ACTION_BODY_LIMIT)
    return { status: 413, reason: `a form may send at most ${ACTION_BODY_LIMIT / 1024 / 1024} MB` };
  return null;
}

/** The API's refusal body (docs/api.md): every refusal under /api/v1 is JSON of this shape. */
export const apiErrorBody = (code: string, message: string) =>
  `${JSON.stringify({ error: { code, message } } satisfies ApiErrorBody)}\n`;

export const isApiPath = (target: string) => /^\/api\/v1(\/|$|\?)/.test(target);

/** The API's 404 for an unknown path and 405 (with `Allow`) for a method not taken; null: the route answers. */
export function apiRouteRefusal(
  method: string | undefined,
  target: string,
  routes: ReadonlyArray<{ path: string; methods: readonly string[] }>,
): { status: 404 | 405; code: string; message: string; allow?: string } | null {
  if (!isApiPath(target)) return null;
  const path =
    target
      .split(/[?#]/, 1)[0]!
      .replace(/^\/api\/v1/, "")
      .replace(/\/+$/, "") || "/";
  const route = routes.find((r) => new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  if (!route)
    return { status: 404, code: "NOT_FOUND", message: `no API route ${path} (GET /api/v1/openapi.json lists them)` };
  const allowed = route.methods.map((m) => m.toUpperCase());
  if (allowed.includes("GET")) allowed.push("HEAD");
  allowed.push("OPTIONS");
  const asked = (method ?? "GET").toUpperCase();
  if (allowed.includes(asked)) return null;
  const allow = allowed.join(", ");
  return { status: 405, code: "METHOD_NOT_ALLOWED", message: `${path} takes ${allow}, not ${asked}`, allow };
}
