// Work that may fail for a moment, tried again a little later each time; the last failure returned.

export type RetryOptions = {
  attempts: number;
  delay: (attempt: number) => number;
  onFailure: (error: unknown, attempt: number, willRetry: boolean) => void;
  sleep?: (ms: number) => Promise<void>;
};

export async function retrying(work: () => Promise<unknown>, opts: RetryOptions): Promise<boolean> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    try {
      await work();
      return true;
    } catch (e) {
      const willRetry = attempt < opts.attempts;
      opts.onFailure(e, attempt, willRetry);
      if (willRetry) await sleep(opts.delay(attempt));
    }
  }
  return false;
}
