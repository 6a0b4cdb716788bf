import { ansiSegments, hasEscapes } from "@/lib/domain/ansi";
import { collapse } from "@/lib/domain/evidence";
import { shownText } from "@/lib/domain/text";

/** Agent output as text: colours shown, other escapes removed, controls made visible; never markup. */
export function TerminalText({ text, className }: { text: string; className?: string }) {
  if (!hasEscapes(text)) return <pre className={`text ${className ?? ""}`}>{shownText(text)}</pre>;
  return (
    <pre className={`text ${className ?? ""}`}>
      {ansiSegments(text).map((s, i) =>
        s.fg === null && !s.bold ? (
          shownText(s.text)
        ) : (
          <span key={i} className={`${s.fg !== null ? `ansi-${s.fg}` : ""}${s.bold ? " ansi-bold" : ""}`}>
            {shownText(s.text)}
          </span>
        ),
      )}
    </pre>
  );
}

/** Agent output with the lines showing one of `marks` highlighted; plain TerminalText otherwise. */
export function MarkedText({ text, marks, className }: { text: string; marks: readonly string[]; className?: string }) {
  if (!marks.length || hasEscapes(text)) return <TerminalText text={text} className={className} />;
  const shown = shownText(text);
  return (
    <pre className={`text ${className ?? ""}`}>
      {shown.split("\n").map((line, i, all) => {
        const collapsed = collapse(line);
        const marked = marks.some((m) => collapsed.includes(m));
        const end = i < all.length - 1 ? "\n" : "";
        return marked ? (
          <mark key={i} className="fix-line">
            {line}
            {end}
          </mark>
        ) : (
          line + end
        );
      })}
    </pre>
  );
}
