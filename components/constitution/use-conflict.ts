"use client";
import { useState } from "react";
import type { Conflict } from "./conflict-panel";
import { rawFileHref } from "./file-diffs";

/**
 * A save refused because another version was saved meanwhile: fetches that version's
 * `path` for the conflict panel, or says why it could not. `mergedOn` is the version the
 * draft was last re-applied on, until the next save or conflict.
 */
export function useConflict(path: string) {
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [mergedOn, setMergedOn] = useState<number | null>(null);

  const onConflict = async (versionId: number) => {
    setMergedOn(null);
    setConflict({ versionId, loading: true });
    try {
      const response = await fetch(rawFileHref(versionId, path));
      if (response.status === 404)
        setConflict({ versionId, error: `Version ${versionId} no longer has ${path}.` });
      else if (!response.ok)
        setConflict({
          versionId,
          error: `Version ${versionId}'s ${path} could not be fetched (HTTP ${response.status}).`,
        });
      else setConflict({ versionId, theirs: await response.text() });
    } catch {
      setConflict({
        versionId,
        error: `Version ${versionId}'s ${path} could not be fetched: the server did not answer.`,
      });
    }
  };

  /** The draft was re-applied on top of the conflicting version. */
  const merged = (versionId: number) => {
    setConflict(null);
    setMergedOn(versionId);
  };
  /** A save went through: nothing is in conflict any more. */
  const clear = () => {
    setConflict(null);
    setMergedOn(null);
  };

  return { conflict, mergedOn, onConflict, merged, clear };
}
