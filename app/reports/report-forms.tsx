"use client";
import { useActionState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import type { SavedState } from "@/lib/web/form-action";
import { freeze, revoke, type ShareState, share } from "./actions";

export function FreezeForm() {
  const [state, action, pending] = useActionState(freeze, NO_ERRORS);
  return (
    <form action={action} className="filters" aria-label="Freeze a report">
      <div className="field">
        <label>
          Name <input name="name" required maxLength={200} {...fieldProps(state, "name")} />
        </label>
        <FieldError errors={state} name="name" />
      </div>
      <div className="filter-actions">
        <button type="submit" disabled={pending}>
          {pending ? "Freezing…" : "Freeze the results and agreement now"}
        </button>
      </div>
      <FormMessage errors={state} />
    </form>
  );
}

const NO_TOKEN: ShareState = { ...NO_ERRORS, token: null };

export function ShareForm({ report, name }: { report: number; name: string }) {
  const [state, action, pending] = useActionState(share, NO_TOKEN);
  const prefix = `share-${report}-`;
  return (
    <form action={action} className="inline-form" aria-label={`Share ${name}`}>
      <input type="hidden" name="report" value={report} />
      <label>
        expires after{" "}
        <input
          name="days"
          type="number"
          min={1}
          max={3650}
          placeholder="never"
          {...fieldProps(state, "days", prefix)}
        />{" "}
        days
      </label>{" "}
      <button type="submit" disabled={pending}>
        New read-only link
      </button>
      <FieldError errors={state} name="days" idPrefix={prefix} />
      <FormMessage errors={state} />
      {state.token ? (
        <p role="status">
          Copy it now; it is not shown again:{" "}
          <input
            readOnly
            aria-label={`link to ${name}`}
            className="share-link"
            value={`${window.location.origin}/r/${state.token}`}
            onFocus={(e) => e.currentTarget.select()}
          />
        </p>
      ) : null}
    </form>
  );
}

const NOTHING: SavedState = { ...NO_ERRORS, saved: null };

export function RevokeForm({ link, hint }: { link: number; hint: string }) {
  const [state, action, pending] = useActionState(revoke, NOTHING);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="link" value={link} />
      <button type="submit" disabled={pending} aria-label={`Revoke link ${hint}…`}>
        Revoke
      </button>
      <Saved state={state} />
      <FormMessage errors={state} />
    </form>
  );
}
