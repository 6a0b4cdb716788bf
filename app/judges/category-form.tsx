"use client";
// A category's new version: a key (a new one, or one in force to change), name, definition, examples.
import { useActionState } from "react";
import { FieldError, FormMessage, fieldProps, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import { type JudgesState, saveCategory } from "./actions";

const START: JudgesState = { ...NO_ERRORS, saved: null };

export function CategoryForm() {
  const [state, action, pending] = useActionState(saveCategory, START);
  return (
    <form action={action} className="filters" aria-label="Add or change a category">
      <div className="field">
        <label>
          Key <input name="key" placeholder="GRADER_EDIT" required maxLength={40} {...fieldProps(state, "key")} />
        </label>
        <FieldError errors={state} name="key" />
      </div>
      <div className="field">
        <label>
          Name{" "}
          <input name="name" placeholder="Editing the grader" required maxLength={100} {...fieldProps(state, "name")} />
        </label>
        <FieldError errors={state} name="name" />
      </div>
      <div className="field wide">
        <label>
          Definition
          <textarea name="definition" rows={3} required maxLength={2000} {...fieldProps(state, "definition")} />
        </label>
        <FieldError errors={state} name="definition" />
      </div>
      <div className="field wide">
        <label>
          Examples, one a line
          <textarea name="examples" rows={3} {...fieldProps(state, "examples")} />
        </label>
        <FieldError errors={state} name="examples" />
      </div>
      <div className="filter-actions">
        <button type="submit" disabled={pending}>
          Save category
        </button>
        <Saved state={state} />
      </div>
      <FormMessage errors={state} />
    </form>
  );
}
