import { networkMark } from "@/lib/domain/charts";

/** ✓ / × for network on / off in a table cell, named for screen readers. */
export function NetworkMark({ network }: { network: boolean }) {
  return (
    <span role="img" aria-label={network ? "network on" : "network off"}>
      {networkMark(network)}
    </span>
  );
}
