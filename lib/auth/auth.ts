// better-auth (decision 8): email and password, sessions in the database; researchers create accounts.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import type { PrismaClient } from "@/generated/prisma/client";
import { config } from "@/lib/config";
import { currentDb } from "@/lib/db/connect";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/client-address";
import { appOrigin } from "./origin";
import { authSecret } from "./secret";

export const MIN_PASSWORD = 8;

function createAuth(prisma: PrismaClient) {
  return betterAuth({
    appName: "Shortcut Audit",
    secret: authSecret(),
    // Set BETTER_AUTH_URL when served under one known address; otherwise the address each request names.
    baseURL: config().BETTER_AUTH_URL,
    // Its warning that no base URL is set would repeat on every request; errors (a refused origin) still log.
    logger: { level: "error" },
    // Requests that change state must come from this app's own pages (lib/auth/origin.ts).
    trustedOrigins: (request) => {
      const origin = request ? appOrigin(request) : null;
      return origin ? [origin] : [];
    },
    database: prismaAdapter(prisma, { provider: "postgresql" }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD, autoSignIn: false },
    user: {
      additionalFields: {
        handle: { type: "string", required: true, input: false },
        role: { type: "string", required: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // At most 10 sign-in attempts a minute from one address, counted in the database for every process.
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 600,
      customRules: { "/sign-in/email": { window: 60, max: 10 } },
    },
    telemetry: { enabled: false },
    // Secure cookies only over https: a lab server on plain HTTP would never keep the session otherwise.
    advanced: {
      useSecureCookies: (config().BETTER_AUTH_URL ?? "").startsWith("https://"),
      // The address the app's server worked out (decision 13); without it every client shares one bucket.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<PrismaClient, Auth>();

/** The auth instance bound to this process's database (tests swap databases; each gets its own). */
export function auth(): Auth {
  const prisma = currentDb().prisma;
  let a = instances.get(prisma);
  if (!a) instances.set(prisma, (a = createAuth(prisma)));
  return a;
}
