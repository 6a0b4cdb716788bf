// Upload folders, named by pid, of processes that died: removed by the next start.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const UPLOAD_DIR_PREFIX = "shortcut-audit-upload-";

/** Whether a process of this pid runs (one of another user's counts too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the upload folders of processes that are gone (and old unnamed ones); returns folders and bytes. */
export function removeOrphanUploads(dir = os.tmpdir()): { folders: number; bytes: number } {
  let folders = 0;
  let bytes = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(UPLOAD_DIR_PREFIX)) continue;
    const full = path.join(dir, name);
    const pid = /^(\d+)-/.exec(name.slice(UPLOAD_DIR_PREFIX.length))?.[1];
    try {
      const old = Date.now() - fs.statSync(full).mtimeMs > 24 * 3600 * 1000;
      // This process receives nothing before it has swept: a folder with its pid is a former owner's.
      if (pid ? processAlive(Number(pid)) && Number(pid) !== process.pid : !old) continue;
      bytes += sizeOf(full);
      fs.rmSync(full, { recursive: true, force: true });
      folders += 1;
    } catch {
      // Removed meanwhile by its own process: nothing to do.
    }
  }
  return { folders, bytes };
}

function sizeOf(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, name) => n + sizeOf(path.join(p, name)), 0);
}
