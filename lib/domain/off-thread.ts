// The computations run off the request thread (lib/server/compute-thread.ts), by name.

import { monitorReport } from "./monitor-report";
import { type Group, type NetworkGroup, networkChange, type PairedRun, pairedChange } from "./paired";
import { comparePanels } from "./panel-compare";

export type RunGroup = { group: Group; runs: PairedRun[] };
export type NetworkRunGroup = { group: NetworkGroup; runs: PairedRun[] };

export const OFF_THREAD = {
  /** Each group's paired change: its bootstrap is thousands of resamples per condition. */
  pairedChanges: (groups: readonly RunGroup[]) => groups.map((g) => pairedChange(g.group, g.runs)),
  networkChanges: (groups: readonly NetworkRunGroup[]) => groups.map((g) => networkChange(g.group, g.runs)),
  /** Two panels compared: every condition's figures and bootstrap under each. */
  comparePanels,
  /** Every monitor against gold: 2,000 resamples each for its AUROC's interval. */
  monitorReport,
};

export type OffThread = typeof OFF_THREAD;
