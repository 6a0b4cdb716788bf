import type { Metadata } from "next";
import { requirePage } from "@/lib/auth/session";
import { labellers } from "@/lib/data/studies";
import { StudyForm } from "./study-form";

export const metadata: Metadata = { title: "New study" };
export const dynamic = "force-dynamic";

export default async function NewStudyPage() {
  await requirePage("studies:write", "/studies/new");
  const people = await labellers();
  return (
    <>
      <h1>New annotation study</h1>
      <p className="lede">
        A sample stratified by condition (benchmark × model × network × prompt), drawn by a seeded shuffle: the same
        seed and sizes give the same items. Preview the draw and the assignment, then save it as shown.
      </p>
      <StudyForm labellers={people} defaultSeed={new Date().toISOString().slice(0, 10)} />
    </>
  );
}
