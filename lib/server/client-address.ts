// A request's address, worked out once and passed in a header no client can set (decision 13).
import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import type { Config } from "@/lib/config";

/** The header the server sets to the client's address; the sign-in rate limit keys on it. */
export const CLIENT_ADDRESS_HEADER = "x-shortcut-audit-client";

export type Trust = (address: string, hop: number) => boolean;

export function trustFor(setting: Config["TRUST_PROXY"]): Trust {
  if (setting.kind === "off") return () => false;
  if (setting.kind === "hops") return (_address, hop) => hop < setting.hops;
  return proxyaddr.compile(setting.list);
}

/** The client's address: the socket's, or the nearest untrusted one X-Forwarded-For names through trusted proxies. */
export function clientAddress(req: Pick<IncomingMessage, "headers" | "socket">, trust: Trust): string {
  const address = proxyaddr(req as IncomingMessage, trust);
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}

/** Replaces any client-sent copy of the header with the address worked out here. */
export function stampClientAddress(req: IncomingMessage, trust: Trust): void {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req, trust);
}
