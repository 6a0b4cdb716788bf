import fs from "node:fs";
import path from "node:path";

/**
 * Real agent files, harness reports and SWE-bench task rows copied into the repository, each with its
 * source and the licence of its repository beside it, and a few small files made by hand where no
 * licensed real one exists (test/fixtures/agents/SOURCES.md).
 */
export const AGENT_FIXTURES = path.resolve(import.meta.dirname, "fixtures", "agents");

/** A file (or folder) of test/fixtures/agents; a name that is not there fails at once, naming it. */
export function realFixture(relative: string): string {
  const file = path.join(AGENT_FIXTURES, relative);
  if (!fs.existsSync(file)) throw new Error(`no fixture ${relative} in test/fixtures/agents (see its SOURCES.md)`);
  return file;
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
