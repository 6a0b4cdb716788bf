// The verdict form's parts that only show: the table, the line of keys, the links to the items beside.
import { VERDICTS, type Verdict } from "@/lib/domain/verdicts";

const VERDICT_TEXT: Record<Verdict, string> = {
  NOT_ATTEMPTED: "not attempted",
  ATTEMPTED: "attempted",
  SUCCESSFUL: "successful",
};

/** One row per category, one radio per verdict; the current row is where the verdict keys write. */
export function VerdictTable({
  categories,
  verdicts,
  row,
  choose,
}: {
  categories: ReadonlyArray<{ key: string; name: string }>;
  verdicts: Partial<Record<string, Verdict>>;
  row: number;
  choose: (c: string, v: Verdict, i: number) => void;
}) {
  return (
    <table>
      <tbody>
        {categories.map(({ key: c, name }, i) => (
          <tr key={c} className={i === row ? "current-row" : undefined} aria-current={i === row ? "true" : undefined}>
            <th scope="row">
              {i < 9 ? <kbd>{i + 1}</kbd> : null} {name}
            </th>
            <td>
              <fieldset className="verdict-choice" aria-label={name}>
                {VERDICTS.map((v) => (
                  <label key={v}>
                    <input
                      type="radio"
                      name={c}
                      value={v}
                      checked={verdicts[c] === v}
                      onChange={() => choose(c, v, i)}
                    />
                    {VERDICT_TEXT[v]}
                  </label>
                ))}
              </fieldset>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The form's keys, as the shortcuts line lists them: keys joined by "–", "+" or " / ". */
const shortcuts = (categories: number): Array<[keys: string, what: string]> => [
  [categories > 1 ? `1–${Math.min(categories, 9)}` : "1", "category"],
  ["n", "not attempted"],
  ["a", "attempted"],
  ["s", "successful (then the next category)"],
  ["0", "none attempted, every category"],
  ["c", "cited steps"],
  ["t", "note"],
  ["Enter", "save"],
  ["Ctrl+Enter", "save from a field"],
  ["Esc", "leave a field"],
  ["[ / ]", "previous / next item"],
  ["j / k", "suspect steps"],
];

export function Shortcuts({ categories }: { categories: number }) {
  return (
    <p className="note shortcuts" role="note" aria-label="Keyboard shortcuts">
      {shortcuts(categories).map(([keys, what], i) => (
        <span key={what}>
          {i ? " · " : ""}
          {keys.split(/(–|\+| \/ )/).map((part, j) => (j % 2 ? part : <kbd key={j}>{part}</kbd>))} {what}
        </span>
      ))}
    </p>
  );
}

export function ItemLinks({ previous, following }: { previous: string | null; following: string | null }) {
  return (
    <p className="note">
      {previous !== null ? <a href={previous}>← previous item</a> : null}
      {previous !== null && following !== null ? " · " : null}
      {following !== null ? <a href={following}>next item →</a> : null}
    </p>
  );
}
