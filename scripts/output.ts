// The command line's standard output and error as a pipe sees them. On a pipe Node writes
// asynchronously: a process that exits as soon as its last write returns loses what the reader has
// not yet taken (a 132 KB report stopped at the pipe's 64 KB). So a command ends only once both
// streams have handed every byte to the system, and a reader that goes away early (`| head -c 100`)
// ends the command quietly instead of with a stack trace.

/** Resolves once everything written to `stream` so far is written out, or the stream can take no more. */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded || !stream.writable) return resolve();
    // Chunks are written in order: this one's callback runs once every chunk before it is out.
    stream.write("", () => resolve());
  });
}

/** Writes `text`, waiting while the reader is behind; never holds more than the stream's buffer besides. */
export async function writeOut(text: string, stream: NodeJS.WriteStream = process.stdout): Promise<void> {
  if (stream.destroyed) return;
  if (!stream.write(text))
    await new Promise<void>((resolve) => {
      stream.once("drain", resolve);
      stream.once("close", resolve);
    });
}

/** Exits with `code` once standard output and error are written out. */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}

/**
 * A reader that closed the pipe (EPIPE) wants no more: the command stops at once, with the status
 * a shell gives a writer whose reader left (128 + SIGPIPE), and without a stack trace.
 */
export function endQuietlyWhenTheReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(141);
      throw e;
    });
}
