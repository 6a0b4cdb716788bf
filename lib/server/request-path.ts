// A request's path that no route could read: a segment whose percent-encoding is not UTF-8 (%ff),
// or one that decodes to a control character (%00). Refused with 400 in front of Next
// (scripts/server.ts), which would otherwise fail on it in each route with a 500.

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
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    if (/[\u0000-\u001f\u007f]/.test(decoded)) return "the address holds a control character";
  }
  return null;
}
