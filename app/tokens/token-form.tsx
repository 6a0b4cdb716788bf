"use client";
// Make a token of one's own: its name, scopes and expiry; the answer shows the token this once.
import { useActionState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import { createTokenAction, type TokenState } from "./actions";

const START: TokenState = { ...NO_ERRORS, saved: null, token: null };

export function TokenForm({ mayImport }: { mayImport: boolean }) {
  const [state, action, pending] = useActionState(createTokenAction, START);
  return (
    <>
      <form action={action} className="filters" aria-label="Make a token">
        <div className="field">
          <label>
            Name <input name="name" maxLength={100} placeholder="e.g. cluster job" {...fieldProps(state, "name")} />
          </label>
          <FieldError errors={state} name="name" />
        </div>
        <fieldset className="field">
          <legend>Scopes</legend>
          <label className="check">
            <input type="checkbox" name="scope" value="read" defaultChecked /> read
          </label>
          <label className="check">
            <input type="checkbox" name="scope" value="import" defaultChecked={false} disabled={!mayImport} /> import
          </label>
          <FieldError errors={state} name="scopes" />
        </fieldset>
        <div className="field">
          <label>
            Expires after (days, empty: never){" "}
            <input
              name="expires_days"
              type="number"
              min={1}
              max={3650}
              inputMode="numeric"
              {...fieldProps(state, "expiresDays")}
            />
          </label>
          <FieldError errors={state} name="expiresDays" />
        </div>
        <div className="filter-actions">
          <button type="submit" disabled={pending}>
            Make a token
          </button>
          <Saved state={state} />
        </div>
        <FormMessage errors={state} />
      </form>
      {state.token ? (
        <div className="token-once" role="status">
          <p>Your new token, shown this once (only its hash is kept):</p>
          <output aria-label="The new token" className="file-name">
            {state.token}
          </output>
        </div>
      ) : null}
    </>
  );
}
