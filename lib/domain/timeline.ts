// A timeline's pages: step 0 and steps 1–50 first, then 50 a page, so a page's DOM stays one size.

export const STEPS_PER_PAGE = 50;

export function stepPage(step: number): number {
  return step <= STEPS_PER_PAGE ? 1 : Math.ceil(step / STEPS_PER_PAGE);
}

export function pageSteps(page: number): { from: number; to: number } {
  return { from: page === 1 ? 0 : (page - 1) * STEPS_PER_PAGE + 1, to: page * STEPS_PER_PAGE };
}

export function stepHref(trajectory: number | string, step: number): string {
  const base = typeof trajectory === "number" ? `/trajectories/${trajectory}` : trajectory;
  return `${base}?page=${stepPage(step)}#step-${step}`;
}

/** "3, 17 40" → [3, 17, 40], or the first bad token. */
export function parseSteps(text: string, stepCount: number): { steps: number[] } | { error: string } {
  const tokens = text.split(/[\s,;]+/).filter(Boolean);
  const steps: number[] = [];
  for (const t of tokens) {
    const n = Number(t);
    if (!Number.isInteger(n) || n < 0 || n > stepCount)
      return { error: `“${t}” is not a step between 0 and ${stepCount}` };
    if (!steps.includes(n)) steps.push(n);
  }
  return { steps: steps.sort((a, b) => a - b) };
}

/** At most this many trajectories side by side (a page of steps is read for each). */
export const COMPARE_MAX = 12;

/** The compare view of these trajectories (the first COMPARE_MAX). */
export const compareHref = (ids: readonly number[]) => `/compare?ids=${ids.slice(0, COMPARE_MAX).join(",")}`;
