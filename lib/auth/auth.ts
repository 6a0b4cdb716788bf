// Authentication with better-auth: email and password, passwords hashed with scrypt, sessions in the
// database (table "session"), the session token in an httpOnly cookie signed with the app's secret.
// Nobody signs themselves up: researchers create accounts (People page, or `npm run cli -- user add`).
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
    // Guessing passwords: at most 10 sign-in attempts a minute from one address, counted in the
    // database (table rate_limit), so every app process and machine shares the count.
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 600,
      customRules: { "/sign-in/email": { window: 60, max: 10 } },
    },
    telemetry: { enabled: false },
    // Secure (HTTPS-only) cookies when the app's address is https; a lab server reached over plain
    // HTTP by its name or address would otherwise never keep the session cookie.
    advanced: {
      useSecureCookies: (config().BETTER_AUTH_URL ?? "").startsWith("https://"),
      // The client's address, as the app's server worked it out (lib/server/client-address.ts): the
      // socket's, or the one a configured proxy forwarded. X-Forwarded-For itself is not read, since
      // anyone can send it. Without the server in front (a bare `next start`) the header is absent
      // and every client shares one bucket: closed, not open.
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
