"use server";
import { redirect } from "next/navigation";
import { requireAction } from "@/lib/auth/session";
import { refusal } from "@/lib/format";
import { createStudy, draftStudy, StudyError, type StudyDraft } from "@/lib/data/studies";

export type DraftState = { draft: StudyDraft | null; error: string | null };

/**
 * The form as the data layer reads it. Per-stratum sizes come as pairs of fields in order, "stratum"
 * and "stratumSize": a stratum's name is data (it may hold quotes), so it travels as a value.
 */
function designFrom(data: FormData) {
  const strata = data.getAll("stratum").map(String);
  const given = data.getAll("stratumSize").map(String);
  const sizes: Record<string, string> = {};
  strata.forEach((s, i) => {
    if (given[i]?.trim()) sizes[s] = given[i]!;
  });
  return {
    name: data.get("name"),
    seed: data.get("seed"),
    size: data.get("size"),
    sizes,
    overlap: data.get("overlap"),
    blind: data.get("blind") === "on",
    annotators: data.getAll("annotators").map(String),
  };
}

const message = (e: unknown) => refusal(e, [StudyError]);

export async function previewStudy(_: DraftState, data: FormData): Promise<DraftState> {
  const actor = await requireAction("studies:write");
  try {
    return { draft: await draftStudy(actor, designFrom(data)), error: null };
  } catch (e) {
    return { draft: null, error: message(e) };
  }
}

export async function saveStudy(_: DraftState, data: FormData): Promise<DraftState> {
  const actor = await requireAction("studies:write");
  let id: number;
  try {
    id = await createStudy(actor, designFrom(data), String(data.get("digest") ?? ""));
  } catch (e) {
    return { draft: null, error: message(e) };
  }
  redirect(`/studies?created=${id}`);
}
