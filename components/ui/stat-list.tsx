import { formatCount } from "@/lib/domain/format";

export function StatList({ label, items }: { label: string; items: ReadonlyArray<readonly [string, number]> }) {
  return (
    <dl className="totals" aria-label={label}>
      {items.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
