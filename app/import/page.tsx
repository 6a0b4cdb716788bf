import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";
import { ImportHistory } from "@/components/import/import-history";
import { listImports } from "@/lib/data/imports-list";
import { requirePage } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Import" };
export const dynamic = "force-dynamic";

export default async function ImportPage() {
  await requirePage("imports:write", "/import");
  const imports = await listImports();
  return (
    <>
      <h1>Import</h1>
      <p className="lede">
        Trajectories, judge votes and labels in the app&apos;s own JSONL, or agent-harness files (mini-swe-agent,
        SWE-agent, OpenHands). Each file lands whole or not at all; importing it again replaces what it brought. Large
        collections go faster from the command line: <code>npm run cli -- import FILE_OR_FOLDER</code>.
      </p>
      <ImportForm />
      <ImportHistory imports={imports} />
    </>
  );
}
