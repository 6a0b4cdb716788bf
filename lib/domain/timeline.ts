// Paging of a trajectory's timeline: step 0 (the prompt) and steps 1–50 on page 1, then 50 a page.
// A constant number of steps per page keeps the page's DOM the same size however long the run.

export const STEPS_PER_PAGE = 50;

export function stepPage(step: number): number {
  return step <= STEPS_PER_PAGE ? 1 : Math.ceil(step / STEPS_PER_PAGE);
}

export function pageSteps(page: number): { from: number; to: number } {
  return { from: page === 1 ? 0 : (page - 1) * STEPS_PER_PAGE + 1, to: page * STEPS_PER_PAGE };
}

/** A link to one step of a trajectory (its page and anchor). */
export function stepHref(trajectory: number | string, step: number): string {
  const base = typeof trajectory === "number" ? `/trajectories/${trajectory}` : trajectory;
  return `${base}?page=${stepPage(step)}#step-${step}`;
}
