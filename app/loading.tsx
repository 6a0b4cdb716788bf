// Shown while a page's data is read (the result table, agreement, a long timeline), instead of a
// blank wait: the menu stays, and this stands where the page will be.
export default function Loading() {
  return (
    <p className="note" aria-live="polite" aria-busy="true">
      Loading…
    </p>
  );
}
