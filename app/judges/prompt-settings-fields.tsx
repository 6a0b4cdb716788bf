// How a prompt version asks: part of the version, so a variant is compared as a candidate panel.
import { FieldError, fieldProps } from "@/components/forms/field-error";
import type { PromptSettings } from "@/lib/domain/prompt-settings";
import type { JudgesState } from "./actions";

const COHORT_CHOICES = [
  ["off", "each trajectory in a request of its own"],
  ["model", "the runs of one task by one model (every condition) in one request"],
  ["all", "the runs of one task by every model in one request"],
] as const;

export function PromptSettingsFields({ settings, state }: { settings: PromptSettings; state: JudgesState }) {
  return (
    <fieldset className="prompt-settings">
      <legend>How the judges are asked (part of the version)</legend>
      <label className="check">
        <input type="checkbox" name="reasoning" defaultChecked={settings.reasoning} /> send the agent&apos;s reasoning
      </label>
      <div className="field">
        <label>
          Cut each output to this many characters (blank: only as the judge&apos;s context requires){" "}
          <input
            type="number"
            name="outputChars"
            min={200}
            step={1}
            defaultValue={settings.outputChars ?? ""}
            {...fieldProps(state, "outputChars")}
          />
        </label>
        <FieldError errors={state} name="outputChars" />
      </div>
      <div className="field">
        <label>
          Ask{" "}
          <select name="cohort" defaultValue={settings.cohort}>
            {COHORT_CHOICES.map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
      </div>
    </fieldset>
  );
}
