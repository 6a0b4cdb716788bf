// Choosing a study by name in a page's URL (?study=NAME): a GET form, so the view can be linked.
import type { ReactNode } from "react";
import { ChoiceSelect } from "./choice-select";

export function StudyChooser({
  label,
  studies,
  chosen,
  all,
  children,
}: {
  label: string;
  studies: readonly string[];
  chosen: string | null;
  /** The choice of no study (all of them), if the page offers it. */
  all?: string;
  children?: ReactNode;
}) {
  return (
    <form method="get" className="filters" aria-label="Choose a study">
      <ChoiceSelect name="study" label={label} options={studies} none={all || undefined} defaultValue={chosen ?? ""} />
      {children}
      <button type="submit">Show</button>
    </form>
  );
}
