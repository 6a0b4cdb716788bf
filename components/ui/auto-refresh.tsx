"use client";
// Re-renders the page from the server every few seconds while something it shows is under way (a
// judge run), and says so; it stops when the page no longer renders it or the tab is hidden.
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
