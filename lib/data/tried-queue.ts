import "server-only";
// Tried rules take turns: one per person, a third of the pool at most, so pages get connections (issue 61).
import { config } from "@/lib/config";

type Turn = () => void;

const tails = new Map<string, Promise<void>>();
let running = 0;
const waiting: Turn[] = [];

export const triedAtOnce = () => Math.max(1, Math.floor(config().DATABASE_POOL_SIZE / 3));

async function slot(): Promise<() => void> {
  if (running >= triedAtOnce()) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

/** Runs `work` after `who`'s earlier tries and once a slot is free. */
export async function inTurn<T>(who: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(who) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  tails.set(who, tail);
  try {
    await before;
    const release = await slot();
    try {
      return await work();
    } finally {
      release();
    }
  } finally {
    done();
    if (tails.get(who) === tail) tails.delete(who);
  }
}
