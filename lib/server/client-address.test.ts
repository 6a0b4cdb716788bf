import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { clientAddress, trustFor } from "./client-address";

const request = (socket: string, forwardedFor?: string) =>
  ({
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    socket: { remoteAddress: socket },
  }) as never;
const trust = (setting?: string) => trustFor(parseConfig({ TRUST_PROXY: setting }).TRUST_PROXY);

describe("the client's address", () => {
  it("without a configured proxy is the socket's, whatever X-Forwarded-For says", () => {
    expect(clientAddress(request("203.0.113.7"), trust())).toBe("203.0.113.7");
    expect(clientAddress(request("203.0.113.7", "198.51.100.1"), trust())).toBe("203.0.113.7");
    expect(clientAddress(request("::ffff:127.0.0.1", "junk, more junk"), trust())).toBe("127.0.0.1");
  });

  it("behind trusted proxies is the nearest address that is not one of them", () => {
    // Proxy at 10.0.0.2 (trusted); the client claims to be 1.1.1.1 but the proxy saw 198.51.100.9.
    expect(clientAddress(request("10.0.0.2", "1.1.1.1, 198.51.100.9"), trust("10.0.0.0/8"))).toBe("198.51.100.9");
    expect(clientAddress(request("127.0.0.1", "198.51.100.9"), trust("loopback"))).toBe("198.51.100.9");
    // A request straight from an untrusted address is that address, its header ignored.
    expect(clientAddress(request("203.0.113.7", "198.51.100.9"), trust("10.0.0.0/8"))).toBe("203.0.113.7");
  });

  it("with a hop count trusts that many proxies and no more", () => {
    expect(clientAddress(request("10.0.0.2", "1.1.1.1, 198.51.100.9"), trust("1"))).toBe("198.51.100.9");
    expect(clientAddress(request("10.0.0.2", "1.1.1.1, 198.51.100.9"), trust("2"))).toBe("1.1.1.1");
  });
});
