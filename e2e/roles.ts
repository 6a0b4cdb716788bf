import path from "node:path";

/** Where auth.setup.ts keeps a signed-in browser state per role. */
export const stateFile = (role: "RESEARCHER" | "ANNOTATOR" | "REVIEWER") => path.join(".data", "e2e-auth", `${role.toLowerCase()}.json`);
