// The command line as the tests run it, on a database of theirs: to its end, or started and left running.
import { spawn, spawnSync } from "node:child_process";

const CLI = ["--conditions=react-server", "--import", "tsx", "scripts/cli.ts"];
const envFor = (url: string) => ({ ...process.env, DATABASE_URL: url });

/** Runs the command line to its end: its status and what it printed. */
export function runCli(url: string, ...args: string[]) {
  return spawnSync(process.execPath, [...CLI, ...args], { env: envFor(url), encoding: "utf8" });
}

/** Starts the command line (its standard error piped, for the test to read or ignore). */
export function startCli(url: string, ...args: string[]) {
  return spawn(process.execPath, [...CLI, ...args], { env: envFor(url), stdio: ["ignore", "ignore", "pipe"] });
}
