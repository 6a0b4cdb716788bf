// Runs once when a server process starts (lib/work/recovery.ts says what it puts right).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { recoverAtStart } = await import("@/lib/work/recovery");
  await recoverAtStart();
}
