import "server-only";
import { db } from "@/lib/db";
import type { RecordWarning } from "@/lib/formats/audit";
import type { RecordError } from "@/lib/formats/interchange";

export type ImportRow = {
  id: number;
  fileName: string;
  format: string | null;
  source: string;
  status: "RUNNING" | "SUCCEEDED" | "FAILED";
  startedAt: Date;
  finishedAt: Date | null;
  by: string | null;
  bytes: number;
  trajectories: number;
  votes: number;
  labels: number;
  taskRecords: number;
  gold: number;
  replaced: number;
  unchanged: number;
  rejected: number;
  unparseable: number;
  errors: RecordError[];
  assistantTurns: number;
  toolCalls: number;
  warnings: RecordWarning[];
  warningCount: number;
};

/** Past imports, newest first. */
export async function listImports(limit = 100): Promise<ImportRow[]> {
  const rows = await db().import.findMany({
    orderBy: { id: "desc" },
    take: limit,
    select: {
      id: true,
      fileName: true,
      format: true,
      source: true,
      status: true,
      startedAt: true,
      finishedAt: true,
      fileBytes: true,
      trajectories: true,
      votes: true,
      labels: true,
      taskRecords: true,
      gold: true,
      replaced: true,
      unchanged: true,
      rejected: true,
      unparseable: true,
      errors: true,
      assistantTurns: true,
      toolCalls: true,
      warnings: true,
      warningCount: true,
      byName: true,
      user: { select: { name: true } },
    },
  });
  return rows.map(({ user, byName, fileBytes, errors, warnings, ...r }) => ({
    ...r,
    by: user?.name ?? byName,
    bytes: Number(fileBytes),
    errors: (errors as RecordError[]) ?? [],
    warnings: (warnings as RecordWarning[]) ?? [],
  }));
}
