// Runs `next build` when there is no build, or when any source is newer than the build.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const stamp = ".next/BUILD_ID";
const sources = [
  "app",
  "components",
  "lib",
  "public",
  "generated",
  "prisma/schema.prisma",
  "next.config.ts",
  "proxy.ts",
  "package.json",
  "tsconfig.json",
];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return fs.readdirSync(p).reduce((m, f) => Math.max(m, newest(path.join(p, f))), st.mtimeMs);
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changed = Math.max(...sources.map(newest));
if (built >= changed) process.exit(0);
console.error(built ? "sources changed since the last build: building" : "no build yet: building (about a minute)");
execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
