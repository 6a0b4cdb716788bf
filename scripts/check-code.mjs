// npm run lint, after Biome: what Biome does not check.
// - No line of the project's own code is over 120 characters (Biome's formatter wraps code at 120 but
//   leaves strings, comments and regular expressions whole).
// - No product file (lib, app, components; tests aside) is over 300 lines, comments counted (Biome's
//   own rule leaves them out), and no component over 60 lines of JSX (Biome counts a function's
//   lines but not the JSX it returns): the lines its JSX spans, nested functions' JSX inside it counted.
// - A Response is built only where requests are served: app/, lib/web/, lib/api/ (decision 51); the
//   judge client's fetch for the OpenAI SDK is the one exception.
// - Comments are at most 6% of the product's lines: why in a line or two, decisions cited by number.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import ts from "typescript";

const MAX = 120;
const MAX_FILE_LINES = 300;
const MAX_JSX_LINES = 60;
const MAX_COMMENT_SHARE = 0.06;
const RESPONSE_HOME = /^(app\/|lib\/web\/|lib\/api\/|lib\/judges\/client\.ts$)/;
const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts", "*.tsx", "*.mjs", "*.js", "*.css"],
  { encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f && !f.startsWith("prisma/migrations/") && !f.startsWith("generated/") && fs.existsSync(f));
const isProduct = (f) => /^(lib|app|components)\/.*\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f);

/** How many of these lines are comments: line comments, and every line of a block comment. */
function commentLines(lines) {
  let n = 0;
  let open = false;
  for (const l of lines) {
    const t = l.trim();
    if (open || /^(\/\/|\/\*|\{\/\*)/.test(t)) n++;
    if (open) open = !t.includes("*/");
    else if (/^(\/\*|\{\/\*)/.test(t)) open = !t.includes("*/");
  }
  return n;
}

/** Each function of a TSX file with the number of lines its own JSX spans. */
function jsxLines(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const spans = new Map();
  const isFunction = (n) =>
    ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n);
  const isJsx = (n) => ts.isJsxElement(n) || ts.isJsxFragment(n) || ts.isJsxSelfClosingElement(n);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (n, fn) => {
    if (isFunction(n)) fn = n;
    if (fn && isJsx(n)) {
      const lines = spans.get(fn) ?? new Set();
      for (let i = line(n.getStart()); i <= line(n.getEnd()); i++) lines.add(i);
      spans.set(fn, lines);
      return; // the JSX inside is within these lines
    }
    ts.forEachChild(n, (c) => visit(c, fn));
  };
  visit(sf, null);
  return [...spans].map(([fn, lines]) => ({ at: line(fn.getStart()) + 1, lines: lines.size }));
}

const faults = [];
const share = { lines: 0, comments: 0 };
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.replace(/\n$/, "").split("\n");
  lines.forEach((l, i) => {
    if ([...l].length > MAX) faults.push(`${file}:${i + 1}: ${[...l].length} characters`);
  });
  if (!isProduct(file)) continue;
  if (lines.length > MAX_FILE_LINES) faults.push(`${file}: ${lines.length} lines`);
  share.lines += lines.length;
  share.comments += commentLines(lines);
  if (file.endsWith(".tsx"))
    for (const f of jsxLines(file, text))
      if (f.lines > MAX_JSX_LINES) faults.push(`${file}:${f.at}: a component of ${f.lines} lines of JSX`);
  if (!RESPONSE_HOME.test(file) && /\bnew Response\(|\bResponse\.(json|redirect)\(/.test(text))
    faults.push(`${file}: builds a Response outside app/, lib/web/ and lib/api/`);
}
const commentShare = share.comments / share.lines;
if (commentShare > MAX_COMMENT_SHARE)
  faults.push(
    `comments are ${(100 * commentShare).toFixed(1)}% of the product's lines (${share.comments}), ` +
      `over ${100 * MAX_COMMENT_SHARE}%`,
  );
if (faults.length) {
  console.error(`${faults.length} fault(s):\n${faults.join("\n")}`);
  process.exit(1);
}
console.error(
  `code: ${files.length} files, lines ≤ ${MAX} characters, product files ≤ ${MAX_FILE_LINES} lines, ` +
    `components ≤ ${MAX_JSX_LINES} lines of JSX, Responses only where requests are served, ` +
    `comments ${(100 * commentShare).toFixed(1)}% of the product's lines`,
);
