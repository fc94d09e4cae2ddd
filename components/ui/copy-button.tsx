"use client";
import { useEffect, useState } from "react";
import { Button } from "./primitives";

type State = "idle" | "copied" | "failed";

/** Copies through a hidden text area: for pages served over plain http, where `navigator.clipboard` is absent. */
function copyWithSelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } finally {
    area.remove();
  }
}

async function copy(text: string): Promise<boolean> {
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, page not focused): the selection route may still work.
    }
  }
  return copyWithSelection(text);
}

/** Copies `text` to the clipboard and says so for a few seconds; says when the browser refused. */
export function CopyButton({
  text,
  label = "Copy",
  what,
}: {
  text: string;
  label?: string;
  what?: string;
}) {
  const [state, setState] = useState<State>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 3000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        aria-label={what ? `${label}: ${what}` : undefined}
        onClick={() => void copy(text).then((ok) => setState(ok ? "copied" : "failed"))}
      >
        {state === "copied" ? "Copied" : label}
      </Button>
      <span aria-live="polite" className="text-xs text-slate-600">
        {state === "copied"
          ? "Copied to the clipboard."
          : state === "failed"
            ? "The browser refused: select the text and copy it yourself."
            : ""}
      </span>
    </span>
  );
}
