"use server";
import { revalidatePath } from "next/cache";
import { acceptLabelSchema } from "@/lib/schemas/labels";
import { acceptLabel } from "@/lib/services/review-labels";
import { defineAction } from "./client";

/**
 * Stores a reviewer's label as an eval case in `eval/reviewed.yaml`, a new constitution
 * version on top of the one its preview was made on (a conflict when another was saved
 * since). Refused, with nothing stored, unless the editor confirmed that the prompt text
 * may be stored.
 */
export const acceptLabelAction = defineAction(
  { role: "editor", input: acceptLabelSchema },
  async (input, { actor }) => {
    const saved = await acceptLabel(input, actor);
    revalidatePath("/constitution", "layout");
    return saved;
  },
);
