"use client";
// Unexpected failures land here; the details stay in the server log.
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <>
      <h1>Something went wrong</h1>
      <p>The page could not be loaded. If the database was restarting, trying again usually works.</p>
      <button type="button" onClick={reset}>
        Try again
      </button>
    </>
  );
}
