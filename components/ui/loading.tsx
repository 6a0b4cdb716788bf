// What stands where a slow part of a page will be while it is read. Pages check access and their
// address first, outside the Suspense boundary, so a refusal still answers with its own status.
export function Loading({ what }: { what: string }) {
  return (
    <p className="note" aria-live="polite" aria-busy="true">
      Reading {what}…
    </p>
  );
}
