// A child of bench-mixed.ts: CONNECTIONS readers, split over the given paths, each loading its page
// PER_SECOND times a second, for SECONDS seconds, in a process of their own (so their event loop does
// not slow the judge run measured beside them), from the start signal (bench-go.ts). Prints one JSON
// line (bench-load.ts's Load).
// node --import tsx scripts/bench-readers.ts BASE COOKIE SECONDS CONNECTIONS PER_SECOND PATH...
import { readyThenGo } from "./bench-go";
import { loadPaths } from "./bench-load";

const [base, cookie, seconds, connections, perSecond, ...paths] = process.argv.slice(2);
await readyThenGo();
console.log(
  JSON.stringify(await loadPaths(base!, cookie!, Number(seconds), Number(connections), paths, Number(perSecond))),
);
