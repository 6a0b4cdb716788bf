// A state change must come from this app's origin: BETTER_AUTH_URL's, else the Host addressed.
import { config } from "@/lib/config";

export function appOrigin(request: Request, fixedUrl: string | undefined = config().BETTER_AUTH_URL): string | null {
  if (fixedUrl) return new URL(fixedUrl).origin;
  const host = request.headers.get("host");
  return host ? `${new URL(request.url).protocol}//${host}` : null;
}

/** True when the request names this app as its origin; a request without an Origin is not. */
export function fromThisApp(request: Request, fixedUrl: string | undefined = config().BETTER_AUTH_URL): boolean {
  const origin = request.headers.get("origin");
  const expected = appOrigin(request, fixedUrl);
  return !!origin && origin !== "null" && origin === expected;
}
