// What a journey checks of a page's layout at a width: nothing runs off the right edge (wide tables
// scroll in a box of their own, long texts and the contents bar on phones in theirs), and no text runs
// out of its own box into its neighbour's (a line that does not wrap, wider than its table cell), and
// no checkbox or radio stands on a line of its own away from the words that name it, and no table's
// rows hide behind a box's own height, with a screenshot kept in the test's output.
import type { Page, TestInfo } from "@playwright/test";

export const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Elements whose right edge is past the viewport's, outside a box that scrolls on its own. */
export function offRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 1) continue;
      if (el.closest(".table-scroll, pre, .recharts-wrapper, .chart-scroll, .contents-bar")) continue;
      out.push(`${el.tagName.toLowerCase()}.${el.className} (right edge ${Math.round(r.right)} of ${width})`);
    }
    return out.slice(0, 10);
  });
}

/**
 * Elements whose own text is wider than their box and spills over, outside a box that scrolls on its
 * own: the text is drawn over what stands beside it (or cut where a parent hides it).
 */
export function textOutOfBox(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      if (el.clientWidth === 0 || el.scrollWidth <= el.clientWidth + 1) continue;
      if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())) continue;
      const style = getComputedStyle(el);
      if (style.overflowX !== "visible" || style.textOverflow === "ellipsis") continue;
      if (el.closest("pre, .recharts-wrapper, svg")) continue;
      const what = `${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.trim().slice(0, 40)}"`;
      out.push(`${what} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return out.slice(0, 10);
  });
}

/**
 * Checkboxes and radios inside a label that stand apart from the label's first line of words (a
 * label laid out as a column puts the box above its words, where it reads as a field of its own).
 */
export function boxesApartFromWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>(
      "label input[type=checkbox], label input[type=radio]",
    )) {
      const box = input.getBoundingClientRect();
      const label = input.closest("label")!;
      const words = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (box.width === 0 || !words) continue;
      const range = document.createRange();
      range.selectNodeContents(words);
      const line = [...range.getClientRects()].find((r) => r.width > 1);
      const middle = (box.top + box.bottom) / 2;
      if (line && (middle < line.top || middle > line.bottom))
        out.push(`${input.type} "${words.textContent?.trim().slice(0, 40)}" apart from its words`);
    }
    return out.slice(0, 10);
  });
}

/**
 * Tables (and the judges beside a timeline) whose rows are hidden behind a box's own height: a box
 * that scrolls up and down, or hides what is below its edge, with more inside than it shows.
 */
export function cutByABox(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      if (el.clientHeight === 0 || el.scrollHeight <= el.clientHeight + 1) continue;
      const style = getComputedStyle(el);
      if (style.overflowY === "visible") continue;
      if (!el.querySelector("table") && !el.matches(".timeline-aside")) continue;
      out.push(`${el.tagName.toLowerCase()}.${el.className} shows ${el.clientHeight} of ${el.scrollHeight} px`);
    }
    return out.slice(0, 10);
  });
}

/** Resizes, screenshots the page into the test's output, and answers what runs off the edge or out of its box. */
export async function atEachWidth(page: Page, info: TestInfo, name: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: info.outputPath(`${name}-${size.width}x${size.height}.png`) });
    found[`${size.width}`] = [
      ...(await offRightEdge(page)),
      ...(await textOutOfBox(page)),
      ...(await boxesApartFromWords(page)),
      ...(await cutByABox(page)),
    ];
  }
  return found;
}
