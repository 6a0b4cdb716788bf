// Choosing a study by name in a page's URL (?study=NAME): a GET form, so the view can be linked.
import type { ReactNode } from "react";

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
  /** Further fields of the form. */
  children?: ReactNode;
}) {
  return (
    <form method="get" className="filters" aria-label="Choose a study">
      <label>
        {label}{" "}
        <select name="study" defaultValue={chosen ?? ""}>
          {all ? <option value="">{all}</option> : null}
          {studies.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {children}
      <button type="submit">Show</button>
    </form>
  );
}
