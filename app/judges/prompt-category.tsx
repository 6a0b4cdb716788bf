"use client";
// One action: the next prompt version asks a category too, or no longer asks it.
import { useActionState } from "react";
import { FormMessage, Saved } from "@/components/forms/field-error";
import { NO_ERRORS } from "@/lib/errors";
import { changePromptCategories, type JudgesState } from "./actions";

const START: JudgesState = { ...NO_ERRORS, saved: null };

export function PromptCategory({ categoryKey, asked }: { categoryKey: string; asked: boolean }) {
  const [state, action, pending] = useActionState(changePromptCategories, START);
  const what = asked ? "Remove from the next prompt" : "Add to the next prompt";
  return (
    <form action={action} aria-label={`${what} version: ${categoryKey}`}>
      <input type="hidden" name="key" value={categoryKey} />
      <input type="hidden" name="do" value={asked ? "remove" : "add"} />
      <button type="submit" disabled={pending}>
        {what}
      </button>
      <Saved state={state} />
      <FormMessage errors={state} />
    </form>
  );
}
