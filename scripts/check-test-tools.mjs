// Before `npm test`: the system tools the tests need besides Node, each checked, so a missing one is
// named with how to install it instead of failing deep inside a test. Exits 1 naming every one missing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const found = (command, args = ["--version"]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const checks = [
  {
    ok: () => fs.existsSync(chromium),
    missing:
      `Chromium (for the browser journeys) is not at ${chromium}: ` +
      "apt-get install -y chromium (or set CHROMIUM_PATH)",
  },
  {
    ok: () => found("pdflatex"),
    missing:
      "pdflatex (the tests compile the LaTeX downloads) is not on PATH: " +
      "apt-get install -y --no-install-recommends texlive-latex-base texlive-latex-recommended",
  },
  {
    ok: () => found("kpsewhich", ["booktabs.sty"]),
    missing:
      "LaTeX's booktabs package (the LaTeX tables use it) is not installed: " +
      "apt-get install -y --no-install-recommends texlive-latex-recommended",
  },
];

const missing = checks.filter((c) => !c.ok()).map((c) => c.missing);
if (missing.length) {
  console.error(`npm test needs tools this machine lacks:\n${missing.map((m) => `  - ${m}`).join("\n")}`);
  process.exit(1);
}
