import "server-only";
// What a server action of a form answers: what was saved, or the messages by field; and the one
// way to run a change, revalidate its page and turn an expected failure into that answer.
import { revalidatePath } from "next/cache";
import { type FormErrors, formErrors, NO_ERRORS } from "@/lib/errors";

export type SavedState = FormErrors & { saved: string | null };

export async function attempt(path: string, change: () => Promise<string>): Promise<SavedState> {
  try {
    const saved = await change();
    revalidatePath(path);
    return { ...NO_ERRORS, saved };
  } catch (e) {
    return { ...formErrors(e), saved: null };
  }
}
