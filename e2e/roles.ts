import path from "node:path";

/** Where auth.setup.ts keeps a signed-in browser state per role. */
export const stateFile = (role: "RESEARCHER" | "ANNOTATOR" | "REVIEWER") =>
  path.join(".data", "e2e-auth", `${role.toLowerCase()}.json`);

/** The app's origin, as playwright.config.ts serves it: writes from its own pages carry it (a browser adds it). */
export const APP_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100)}`;
