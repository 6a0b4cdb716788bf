// Run by lib/server/compute-thread.test.ts from another folder, as the command line may be: one
// paired change computed off the thread; prints its group's model.
import { offThread } from "@/lib/server/compute-thread";

const [change] = await offThread("pairedChanges", [
  {
    group: { benchmark: "b", model: "from elsewhere", network: true },
    runs: [{ task: "t", run: 1, side: "before", resolved: true, panel: "SUCCESSFUL" }],
  },
]);
console.log(change?.model);
