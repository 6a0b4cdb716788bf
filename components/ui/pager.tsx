import Link from "next/link";

/** Previous / next links between pages of a server-paged view; nothing when there is one page. */
export function Pager({
  label,
  page,
  pages,
  href,
  previous = "← previous",
  next = "next →",
}: {
  label: string;
  page: number;
  pages: number;
  href: (page: number) => string;
  previous?: string;
  next?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="pager">
      {page > 1 ? <Link href={href(page - 1)}>{previous}</Link> : <span />}
      <span>
        page {page} of {pages}
      </span>
      {page < pages ? <Link href={href(page + 1)}>{next}</Link> : <span />}
    </nav>
  );
}
