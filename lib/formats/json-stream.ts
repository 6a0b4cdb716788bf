// JSON values streamed by stream-json, none over the record limit, with the bytes each took.
import type { Duplex } from "node:stream";
import { formatBytes } from "@/lib/domain/format";
import { LimitExceeded } from "./open-text";
import { overWeight, ValueCounter } from "./weight";

/** The bytes could not be read (a limit, a corrupt gzip stream), as opposed to a JSON syntax error. */
export class ReadFailed extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** Values from a stream-json pipeline with their bytes; over `max` between two is a LimitExceeded naming `what`. */
export async function* streamedValues(
  chunks: AsyncIterable<Buffer>,
  pipeline: Duplex,
  max: number,
  what: string,
): AsyncGenerator<{ value: unknown; bytes: number; total: number }> {
  let since = 0;
  let total = 0;
  // What the bytes since the last value hold counts too (lib/formats/weight.ts).
  const counter = new ValueCounter();
  const feed = (async () => {
    for await (const chunk of chunks) {
      // The feed runs a chunk ahead, so a value is never charged with the start of the next.
      const heavy = overWeight(since, counter.values, max);
      if (heavy) throw new LimitExceeded(`${what} is too heavy: ${heavy}`);
      since += chunk.length;
      total += chunk.length;
      counter.push(chunk);
      if (since > max)
        throw new LimitExceeded(`${what} is over the record limit of ${formatBytes(max)} (IMPORT_MAX_RECORD_BYTES)`);
      if (!pipeline.write(chunk))
        await new Promise((resolve) => pipeline.once("drain", resolve).once("close", resolve));
    }
    // The last chunk, weighed before the values it ends are given.
    const heavy = overWeight(since, counter.values, max);
    if (heavy) throw new LimitExceeded(`${what} is too heavy: ${heavy}`);
    pipeline.end();
  })();
  // A failure of the feed ends the pipeline with that error.
  let failed: unknown = null;
  feed.catch((e: Error) => {
    failed = e;
    pipeline.destroy(e);
  });
  try {
    for await (const { value } of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
      const bytes = since;
      since = 0;
      counter.values = 0;
      yield { value, bytes, total };
    }
    await feed;
  } catch (e) {
    throw failed ? new ReadFailed(failed) : e;
  } finally {
    pipeline.destroy();
  }
}
