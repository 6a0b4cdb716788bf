// Requests refused in front of Next (scripts/server.ts), which would otherwise fail on them with a
// 500: a path no route could read (a segment whose percent-encoding is not UTF-8, %ff, or that
// decodes to a control character, %00), and a server action's body that Next would not read (over
// its 1 MB limit, or of a length not given).

/** Why this request target's path cannot be read, or null when it can. */
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
