"use client";
import { useActionState } from "react";
import { FormMessage, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import type { SavedState } from "@/lib/web/form-action";
import { changeBlindElsewhere } from "./actions";

const START: SavedState = { ...NO_ERRORS, saved: null };

/** A blind study's setting, switched in place: whether a pending item's trajectory is withheld elsewhere. */
export function BlindElsewhereForm({ study, name, on }: { study: number; name: string; on: boolean }) {
  const [state, action, pending] = useActionState(changeBlindElsewhere, START);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="study" value={study} />
      {on ? null : <input type="hidden" name="blindElsewhere" value="on" />}
      <button type="submit" disabled={pending} aria-label={`${on ? "Allow" : "Withhold"} elsewhere: ${name}`}>
        {on ? "Allow elsewhere" : "Withhold elsewhere"}
      </button>
      <Saved state={state} />
      <FormMessage errors={state} />
    </form>
  );
}
