// Digests the data layer keeps to tell that what is saved is what was shown.
import crypto from "node:crypto";
import type { DraftItem } from "@/lib/domain/study-draft";

/** A fingerprint of a study's drawn items and their assignment: 16 hex digits of their SHA-256. */
export function draftDigest(items: readonly DraftItem[]): string {
  return crypto.createHash("sha256").update(JSON.stringify(items)).digest("hex").slice(0, 16);
}

/** SHA-256 of a sequence of texts, each length-prefixed so that no two sequences share a digest. */
export function partsDigest(parts: Iterable<string>): string {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(`${part.length}:`).update(part);
  return hash.digest("hex");
}
