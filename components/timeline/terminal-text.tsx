import { ansiSegments, hasEscapes } from "@/lib/domain/ansi";

/** Agent output as text: terminal colours shown, other escape codes removed, never markup. */
export function TerminalText({ text, className }: { text: string; className?: string }) {
  if (!hasEscapes(text)) return <pre className={`text ${className ?? ""}`}>{text}</pre>;
  return (
    <pre className={`text ${className ?? ""}`}>
      {ansiSegments(text).map((s, i) =>
        s.fg === null && !s.bold ? (
          s.text
        ) : (
          <span key={i} className={`${s.fg !== null ? `ansi-${s.fg}` : ""}${s.bold ? " ansi-bold" : ""}`}>
            {s.text}
          </span>
        ),
      )}
    </pre>
  );
}
