import "server-only";
// What a form's server action answers, and the one way to run a change and revalidate its page.
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
