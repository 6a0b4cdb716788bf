// A labelled select whose first choice chooses none ("any", "—").
export function ChoiceSelect({
  name,
  label,
  options,
  none,
  defaultValue = "",
}: {
  name: string;
  label: string;
  options: readonly string[];
  /** The first choice's words, which sends an empty value; none: no such choice. */
  none?: string;
  defaultValue?: string;
}) {
  return (
    <label>
      {label}{" "}
      <select name={name} defaultValue={defaultValue}>
        {none !== undefined ? <option value="">{none}</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
