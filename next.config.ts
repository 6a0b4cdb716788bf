import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its wasm and data files by path; bundling it breaks that (HTTP 500, "path ... Received an instance
  // of URL").
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter"],
  poweredByHeader: false,
  // forbidden(): a 403 page for a signed-in user whose role may not open a page.
  experimental: { authInterrupts: true },
  // Agent text is only ever rendered as text; these close the doors that remain (sniffing, framing, referrers).
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default config;
