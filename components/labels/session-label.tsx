"use client";
import { useState } from "react";
import { Field, Select } from "@/components/ui/primitives";
import type { LabelChoices } from "@/lib/schemas/labels";
import { LabelPanel } from "./label-panel";

/** A session's prompt a reviewer may label: its turn, its text and the principles it was given (or would have been). */
export type LabelledPrompt = { turnId: string; number: number; prompt: string; injected: string[] };

const EXCERPT = 60;
const excerpt = (text: string) =>
  text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1).trimEnd()}…` : text;

/** Labels one prompt of a session, chosen by its turn: the label names the turn and the session. */
export function SessionLabel({
  prompts,
  choices,
}: {
  prompts: LabelledPrompt[];
  choices: LabelChoices;
}) {
  const [turnId, setTurnId] = useState(prompts[0]?.turnId ?? "");
  const chosen = prompts.find((p) => p.turnId === turnId);
  return (
    <div className="space-y-3">
      <Field label="Prompt to label">
        <Select className="w-full" value={turnId} onChange={(e) => setTurnId(e.target.value)}>
          {prompts.map((p) => (
            <option key={p.turnId} value={p.turnId}>
              {`Turn ${p.number}: ${excerpt(p.prompt)}`}
            </option>
          ))}
        </Select>
      </Field>
      {chosen ? (
        <LabelPanel
          key={chosen.turnId}
          prompt={chosen.prompt}
          turnId={chosen.turnId}
          injected={chosen.injected}
          choices={choices}
        />
      ) : null}
    </div>
  );
}
