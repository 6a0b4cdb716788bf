// npm run lint, after Biome: no line of the project's own code is over 120 characters. Biome's
// formatter wraps code at 120 but leaves strings, comments and regular expressions whole.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const MAX = 120;
const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx", "*.mjs", "*.js", "*.css"],
  { encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f && !f.startsWith("prisma/migrations/") && !f.startsWith("generated/") && fs.existsSync(f));
const long = [];
for (const file of files) {
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if ([...line].length > MAX) long.push(`${file}:${i + 1}: ${[...line].length} characters`);
    });
}
if (long.length) {
  console.error(`${long.length} line(s) over ${MAX} characters:\n${long.join("\n")}`);
  process.exit(1);
}
console.error(`line length: ${files.length} files, every line at most ${MAX} characters`);
