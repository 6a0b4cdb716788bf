// A wide table's sideways scroll box: focusable and named as its table (axe's scrollable-region-focusable).
import type { ReactNode, Ref } from "react";

export function TableScroll({
  label,
  labelledBy,
  className,
  children,
  boxRef,
}: {
  label?: string;
  labelledBy?: string;
  className?: string;
  children: ReactNode;
  boxRef?: Ref<HTMLElement>;
}) {
  return (
    <section
      ref={boxRef}
      className={`table-scroll${className ? ` ${className}` : ""}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls takes the keyboard's focus to scroll
      tabIndex={0}
      aria-label={label}
      aria-labelledby={labelledBy}
    >
      {children}
    </section>
  );
}
