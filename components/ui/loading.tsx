// What stands where a slow part of a page will be (decision 21).
export function Loading({ what }: { what: string }) {
  return (
    <p className="note" aria-live="polite" aria-busy="true">
      Reading {what}…
    </p>
  );
}
