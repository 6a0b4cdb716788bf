"use client";
// The panel's forms: choose judges, adopt a saved panel, compare with a judge's answers outside it.
import { useActionState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import type { SavedState } from "@/lib/web/form-action";
import { adoptPanelAction, compareWithAction, panelFormAction } from "./panel-actions";

const START: SavedState = { ...NO_ERRORS, saved: null };

/** A judge at a version it answered under (null: its imported votes), as the panel form offers it. */
export type PanelChoice = { judge: string; promptVersion: number | null; answers: number; inForce: boolean };

const value = (c: Pick<PanelChoice, "judge" | "promptVersion">) =>
  c.promptVersion === null ? c.judge : `${c.judge}@v${c.promptVersion}`;
const versionText = (v: number | null) => (v === null ? "imported votes" : `prompt v${v}`);

/** Choose the panel's judges, each at a version: compare them with the panel in force, or adopt them. */
export function PanelForm({ choices }: { choices: PanelChoice[] }) {
  const [state, action, pending] = useActionState(panelFormAction, START);
  return (
    <form action={action} aria-label="Choose a panel" className="filters">
      <fieldset aria-describedby={state.fields.member ? "member-error" : undefined}>
        <legend>Judges of a new panel</legend>
        <FieldError errors={state} name="member" />
        {choices.map((c) => (
          <label key={value(c)} className="check">
            <input type="checkbox" name="member" value={value(c)} defaultChecked={c.inForce} /> {c.judge},{" "}
            {versionText(c.promptVersion)} ({c.answers} answers)
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label>
          Name (optional) <input name="name" maxLength={200} {...fieldProps(state, "name")} />
        </label>
        <FieldError errors={state} name="name" />
      </div>
      <div className="filter-actions">
        <button type="submit" name="do" value="compare" disabled={pending}>
          Compare with the panel in force
        </button>
        <button type="submit" name="do" value="adopt" disabled={pending}>
          Put in force now
        </button>
        <Saved state={state} />
      </div>
      <FormMessage errors={state} />
    </form>
  );
}

export function AdoptButton({ panel, label }: { panel: string; label: string }) {
  const [state, action, pending] = useActionState(adoptPanelAction, START);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="panel" value={panel} />
      <button type="submit" disabled={pending}>
        {label}
      </button>
      <Saved state={state} />
      <FormMessage errors={state} />
    </form>
  );
}

/** Answers outside the panel in force, each with an offer to compare the panel with them added. */
export function CompareOffer({ choice, panel }: { choice: PanelChoice; panel: string }) {
  const [state, action, pending] = useActionState(compareWithAction, START);
  return (
    <form action={action} className="inline-form offer">
      <input type="hidden" name="member" value={value(choice)} />
      <span>
        <strong>{choice.judge}</strong> has {choice.answers} answers under {versionText(choice.promptVersion)} that no
        figure counts.{" "}
      </span>
      <button type="submit" disabled={pending}>
        Compare {panel} with {value(choice)} added
      </button>
      <FormMessage errors={state} />
    </form>
  );
}
