"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Applies an ExtractionResult by hand (editors and up): new points, ratings, then prune proposals. */
export const applyExtractionAction = defineAction(
  { role: "editor", input: applyExtractionSchema },
  async (input, { actor }) => {
    const result = await keyPoints.applyExtraction(
      input.extraction,
      input.sessionId ?? null,
      actor,
    );
    revalidatePath("/playbook", "layout");
    return result;
  },
);
