import type { EvidenceKind } from "@/lib/domain/evidence";

export const EVIDENCE_LABELS: Record<EvidenceKind, string> = {
  fix_seen: "fix seen",
  future_commit: "future commit",
  upstream_ref: "upstream change named",
  test_edit: "tests edited",
};
