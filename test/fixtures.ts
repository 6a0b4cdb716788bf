import path from "node:path";
import fs from "node:fs";

/**
 * Real trajectory files from public agent runs, read in place from the shared folder beside the
 * checkout (some have no licence to copy into the project); SHARED_DIR names another place.
 */
export const REAL_FIXTURES = path.resolve(
  process.env.SHARED_DIR ?? path.resolve(import.meta.dirname, "..", "..", "shared"),
  "fixtures",
  "real",
);

export function realFixture(relative: string): string {
  return path.join(REAL_FIXTURES, relative);
}

export function readRealJson(relative: string): unknown {
  return JSON.parse(fs.readFileSync(realFixture(relative), "utf8"));
}

export function readRealJsonl(relative: string): unknown[] {
  return fs
    .readFileSync(realFixture(relative), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}
