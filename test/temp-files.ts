// Files a test writes, in a folder of its own removed after the test file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** A fresh folder for this test file, and `write(name, content)` giving the path of a file written in it. */
export function tempFiles(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string | Buffer): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };
  return { dir, write };
}

/** Records as JSON Lines, one a line, with the final newline. */
export const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
