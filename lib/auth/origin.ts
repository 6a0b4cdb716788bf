// Where a state-changing request may come from: this app's own pages. The app's origin is
// BETTER_AUTH_URL's when set (one fixed address, e.g. behind a proxy), else the one the browser
// addressed (the request's Host). Browsers always send Origin on a POST, including a no-cors fetch
// from a page on another port of the same host (same site, so its cookies ride along): the port
// makes it another origin, and it is refused.
import { config } from "@/lib/config";

/** The origin this request should come from. */
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
