/** A unified diff as text, its added and removed lines coloured (the text itself is never markup). */
export function PatchView({ patch, label = "Final patch" }: { patch: string; label?: string }) {
  return (
    <section aria-label={label}>
      <pre className="text diff">
        {patch.split("\n").map((line, i) => {
          const kind =
            line.startsWith("+++") || line.startsWith("---")
              ? "file"
              : line.startsWith("+")
                ? "add"
                : line.startsWith("-")
                  ? "del"
                  : line.startsWith("@@")
                    ? "hunk"
                    : null;
          return (
            <span key={i} className={kind ? `diff-${kind}` : undefined}>
              {line}
              {"\n"}
            </span>
          );
        })}
      </pre>
    </section>
  );
}
