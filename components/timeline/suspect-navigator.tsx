"use client";
// Keys j / k jump to the next / previous suspect step, across pages; the list is also links.

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { stepHref, stepPage } from "@/lib/domain/timeline";

/** `trajectoryId`: the trajectory's page, or a path of another page showing it (the labelling queue). */
export function SuspectNavigator({
  trajectoryId,
  steps,
  page,
}: {
  trajectoryId: number | string;
  steps: number[];
  page: number;
}) {
  const router = useRouter();
  useEffect(() => {
    const current = () => {
      const m = /^#step-(\d+)$/.exec(window.location.hash);
      return m ? Number(m[1]) : null;
    };
    const go = (step: number) => {
      if (stepPage(step) === page) {
        window.history.replaceState(null, "", `#step-${step}`);
        const el = document.getElementById(`step-${step}`);
        el?.scrollIntoView({ block: "start" });
        el?.focus();
      } else router.push(stepHref(trajectoryId, step));
    };
    const onKey = (e: KeyboardEvent) => {
      if (
        e.metaKey ||
        e.ctrlKey ||
        e.altKey ||
        (e.target instanceof HTMLElement && e.target.closest("input, textarea, select"))
      )
        return;
      if (e.key !== "j" && e.key !== "k") return;
      const at = current() ?? (page === 1 ? -1 : (page - 1) * 50);
      const next = e.key === "j" ? steps.find((s) => s > at) : [...steps].reverse().find((s) => s < at);
      if (next !== undefined) {
        e.preventDefault();
        go(next);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [page, router, steps, trajectoryId]);
  return null;
}
