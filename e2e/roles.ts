import path from "node:path";

type Role = "RESEARCHER" | "ANNOTATOR" | "REVIEWER";

/**
 * The journeys' own accounts, one per role, made by scripts/e2e-accounts.ts before the server
 * starts (the journeys do not lean on the demo accounts, which only the demo journey reads).
 */
export const E2E_ACCOUNTS: ReadonlyArray<{
  handle: string;
  name: string;
  email: string;
  role: Role;
  password: string;
}> = [
  {
    handle: "e2e-rita",
    name: "Rita (e2e researcher)",
    email: "e2e-rita@example.org",
    role: "RESEARCHER",
    password: "e2e-researcher-pass",
  },
  {
    handle: "e2e-ali",
    name: "Ali (e2e annotator)",
    email: "e2e-ali@example.org",
    role: "ANNOTATOR",
    password: "e2e-annotator-pass",
  },
  {
    handle: "e2e-rex",
    name: "Rex (e2e reviewer)",
    email: "e2e-rex@example.org",
    role: "REVIEWER",
    password: "e2e-reviewer-pass",
  },
];

export const e2eAccount = (role: Role) => E2E_ACCOUNTS.find((a) => a.role === role)!;

/** Where auth.setup.ts keeps a signed-in browser state per role. */
export const stateFile = (role: Role) => path.join(".data", "e2e-auth", `${role.toLowerCase()}.json`);

/** The app's origin, as playwright.config.ts serves it: writes from its own pages carry it (a browser adds it). */
export const APP_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;
