import http from "node:http";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { CLIENT_ADDRESS_HEADER, clientAddress, stampClientAddress, trustFor } from "./client-address";

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

describe("the server's stamp, over a real socket", () => {
  // The step scripts/server.ts runs before Next: the header the app reads is the one worked out here.
  async function seen(trustSetting: string | undefined, headers: Record<string, string>, localAddress: string) {
    const trust = trust_(trustSetting);
    const server = http.createServer((req, res) => {
      stampClientAddress(req, trust);
      res.end(String(req.headers[CLIENT_ADDRESS_HEADER]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      return await new Promise<string>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, localAddress, headers }, (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
    } finally {
      server.close();
    }
  }
  const trust_ = (setting?: string) => trustFor(parseConfig({ TRUST_PROXY: setting }).TRUST_PROXY);

  it("without a proxy: the socket's address, whatever the client sends", async () => {
    const forged = { "x-forwarded-for": "198.51.100.1", [CLIENT_ADDRESS_HEADER]: "203.0.113.9" };
    expect(await seen(undefined, forged, "127.0.0.5")).toBe("127.0.0.5");
  });

  it("behind a trusted proxy on loopback: the address the proxy forwarded", async () => {
    expect(await seen("loopback", { "x-forwarded-for": "1.1.1.1, 198.51.100.1" }, "127.0.0.6")).toBe("198.51.100.1");
    expect(await seen("10.0.0.0/8", { "x-forwarded-for": "198.51.100.1" }, "127.0.0.6")).toBe("127.0.0.6");
  });
});
