"use server";
import { revalidatePath } from "next/cache";
import { playbookStore } from "@/lib/db/playbook";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Applies an ExtractionResult by hand (editors and up): new points, ratings, then prune proposals. */
export const applyExtractionAction = defineAction(
  { role: "editor", input: applyExtractionSchema },
  async (input, { actor }) => {
    const result = await playbookStore.applyExtraction(
      input.extraction,
      input.sessionId ?? null,
      actor,
    );
    revalidatePath("/playbook", "layout");
    return result;
  },
);
