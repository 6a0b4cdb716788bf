// A progress bar on standard error when it is a terminal: bytes of all files, records, MB/s.
import fs from "node:fs";
import { formatBytes } from "@/lib/domain/format";

export class ProgressBar {
  private readonly total: number;
  private done = 0;
  private current = 0;
  private records = 0;
  private file = "";
  private readonly started = performance.now();
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WriteStream,
    files: readonly string[],
  ) {
    this.total = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  }

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  start(file: string): void {
    this.file = file;
    this.lastDraw = performance.now();
    this.current = 0;
    this.records = 0;
    this.draw(true);
  }

  update(bytes: number, records: number): void {
    this.current = bytes;
    this.records = records;
    this.draw(false);
  }

  finish(bytes: number): void {
    this.done += bytes;
    this.current = 0;
    if (this.tty) this.out.write("\r\x1b[K");
  }

  private draw(force: boolean): void {
    const now = performance.now();
    if (!this.tty) {
      // Logs (CI, a pipe) get a plain line every few seconds instead of a bar.
      if (!force && this.records > 0 && now - this.lastDraw >= 2000) {
        this.lastDraw = now;
        this.out.write(
          `… ${this.file}: ${this.records.toLocaleString("en-US")} records, ` +
            `${formatBytes(this.done + this.current)} read\n`,
        );
      }
      return;
    }
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const bytes = this.done + this.current;
    const fraction = this.total ? Math.min(1, bytes / this.total) : 1;
    const width = 24;
    const filled = Math.round(fraction * width);
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? bytes / seconds : 0;
    const recordRate = seconds > 0 ? this.records / seconds : 0;
    const name = this.file.length > 40 ? `…${this.file.slice(-39)}` : this.file;
    this.out.write(
      `\r\x1b[K[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ` +
        `${formatBytes(bytes)}/${formatBytes(this.total)} ${formatBytes(rate)}/s ` +
        `${this.records.toLocaleString("en-US")} records (${recordRate.toFixed(0)}/s) ${name}`,
    );
  }
}
