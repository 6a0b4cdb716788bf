"use client";
// Refreshes the page every few seconds while something it shows is under way; stops when hidden or gone.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function AutoRefresh({ seconds = 2, what }: { seconds?: number; what: string }) {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, seconds * 1000);
    return () => clearInterval(timer);
  }, [router, seconds]);
  return (
    <p className="note" aria-live="off">
      {what} under way: this table updates every {seconds} seconds.
    </p>
  );
}
