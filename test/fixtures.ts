import path from "node:path";
import fs from "node:fs";

/** Real agent files copied into the repository with their source and licence (fixtures/agents/SOURCES.md). */
export const AGENT_FIXTURES = path.resolve(import.meta.dirname, "fixtures", "agents");

/**
 * Real trajectory files from public agent runs not moved into the repository yet, read in place from
 * the shared folder beside the checkout; SHARED_DIR names another place.
 */
export const REAL_FIXTURES = path.resolve(
  process.env.SHARED_DIR ?? path.resolve(import.meta.dirname, "..", "..", "shared"),
  "fixtures",
  "real",
);

/**
 * A real agent file: the repository's copy when it has one, else the shared folder's. A folder is the
 * shared one's while files of it are still there (a test that lists it sees what it always saw).
 */
export function realFixture(relative: string): string {
  const own = path.join(AGENT_FIXTURES, relative);
  return fs.existsSync(own) && fs.statSync(own).isFile() ? own : path.join(REAL_FIXTURES, relative);
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
