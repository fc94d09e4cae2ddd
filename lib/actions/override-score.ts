"use server";
import { revalidatePath } from "next/cache";
import { turns } from "@/lib/db/turns";
import { overrideScoreSchema } from "@/lib/schemas/turns";
import { defineAction } from "./client";

/** Overrides one principle's score on one turn (editors and up); audited, totals recomputed. */
export const overrideScoreAction = defineAction(
  { role: "editor", input: overrideScoreSchema },
  async (input, { actor }) => {
    const totals = await turns.overrideScore(input, actor);
    revalidatePath(`/turns/${input.turnId}`);
    return totals;
  },
);
