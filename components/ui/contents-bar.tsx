// A long page's contents: a bar of links that stays at the top (one sideways-scrolling line on phones).
import { anchor } from "@/lib/domain/figure-table";

/** Links to each benchmark's section (ids from `anchor("benchmark", name)`), then the page's own parts. */
export function ContentsBar({
  benchmarks,
  more,
}: {
  benchmarks: readonly string[];
  more: ReadonlyArray<{ id: string; text: string }>;
}) {
  return (
    <nav aria-label="Contents" className="contents-bar">
      {benchmarks.map((b) => (
        <a key={b} href={`#${anchor("benchmark", b)}`}>
          {b}
        </a>
      ))}
      {more.map((m) => (
        <a key={m.id} href={`#${m.id}`}>
          {m.text}
        </a>
      ))}
    </nav>
  );
}
