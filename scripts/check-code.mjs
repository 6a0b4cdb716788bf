// npm run lint, after Biome: no line of the project's own code is over 120 characters (Biome's
// formatter wraps code at 120 but leaves strings, comments and regular expressions whole), and no
// product file (lib, app, components; tests aside) is over 300 lines, comments counted (Biome's
// own file rule leaves comments out). Functions over 60 lines are Biome's rule (biome.json).
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const MAX = 120;
const MAX_FILE_LINES = 300;
const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx", "*.mjs", "*.js", "*.css"],
  { encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f && !f.startsWith("prisma/migrations/") && !f.startsWith("generated/") && fs.existsSync(f));
const isProduct = (f) => /^(lib|app|components)\/.*\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f);
const faults = [];
for (const file of files) {
  const lines = fs.readFileSync(file, "utf8").replace(/\n$/, "").split("\n");
  lines.forEach((line, i) => {
    if ([...line].length > MAX) faults.push(`${file}:${i + 1}: ${[...line].length} characters`);
  });
  if (isProduct(file) && lines.length > MAX_FILE_LINES) faults.push(`${file}: ${lines.length} lines`);
}
if (faults.length) {
  console.error(
    `${faults.length} line(s) over ${MAX} characters or file(s) over ${MAX_FILE_LINES} lines:\n${faults.join("\n")}`,
  );
  process.exit(1);
}
console.error(`line length: ${files.length} files, every line at most ${MAX} characters, product files ≤ 300 lines`);
