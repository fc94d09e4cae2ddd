"use client";
import { useState, type ReactNode } from "react";
import { Button } from "./primitives";

type Props = {
  /** The button's text before it is confirmed, e.g. "Revoke". */
  children: ReactNode;
  /** What will happen, asked in place of the button. */
  question: ReactNode;
  /** The confirming button's text, e.g. "Revoke the key". */
  confirmLabel: string;
  pendingLabel?: string;
  /** Runs on confirm. A returned promise keeps the question open until it settles; it closes only on success (show the error beside it). */
  onConfirm: () => unknown;
  variant?: "danger" | "secondary" | "primary";
  disabled?: boolean;
  pending?: boolean;
  /** Accessible name of the first button, when its text alone is ambiguous (one per table row). */
  label?: string;
  /** More inputs shown with the question (a message, say). */
  details?: ReactNode;
};

/**
 * The one way Charter asks before a change that matters: the button turns into an inline
 * question with a confirm and a cancel button (never the browser's `confirm()` dialog,
 * which cannot be styled, is blocked in some embeddings and reads differently per browser).
 */
export function ConfirmButton({
  children,
  question,
  confirmLabel,
  pendingLabel,
  onConfirm,
  variant = "danger",
  disabled,
  pending,
  label,
  details,
}: Props) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button
        variant={variant}
        disabled={disabled || pending}
        aria-label={label}
        onClick={() => setOpen(true)}
      >
        {children}
      </Button>
    );
  }
  return (
    <div
      role="group"
      aria-label={label ?? confirmLabel}
      className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      <p className="text-slate-700">{question}</p>
      {details}
      <div className="flex flex-wrap gap-2">
        <Button
          variant={variant}
          autoFocus
          disabled={pending}
          onClick={() => {
            const result = onConfirm();
            if (result instanceof Promise)
              result.then(
                () => setOpen(false),
                () => undefined,
              );
            else setOpen(false);
          }}
        >
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </Button>
        <Button variant="ghost" disabled={pending} onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
