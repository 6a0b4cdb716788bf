// npm run lint: the repository stands alone. No tracked file names the folder beside a checkout that
// held this project's first fixtures and documents: a clone has nothing beside it, so a test, a
// script or a document that reads or cites it would fail or mislead there.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const outside = ["..", "shared"].join("/"); // spelled in two parts, so this file does not name it
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
  .split("\n")
  .filter((f) => f && fs.existsSync(f) && fs.statSync(f).isFile());
const hits = [];
for (const file of files) {
  const text = fs.readFileSync(file);
  if (text.includes(0) && !file.endsWith(".md")) continue; // binary (an .eval zip): not read as text
  text
    .toString("utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.includes(outside)) hits.push(`${file}:${i + 1}`);
    });
}
if (hits.length) {
  console.error(`${hits.length} line(s) name ${outside}, which a clone does not have:\n${hits.join("\n")}`);
  process.exit(1);
}
console.error(`stands alone: ${files.length} files, none names ${outside}`);
