"use server";
import { revalidatePath } from "next/cache";
import { removeLabelSchema } from "@/lib/schemas/labels";
import { removeLabel } from "@/lib/services/review-labels";
import { defineAction } from "./client";

/** Removes a reviewed label's eval case, as a new constitution version on top of `baseVersionId`. */
export const removeLabelAction = defineAction(
  { role: "editor", input: removeLabelSchema },
  async (input, { actor }) => {
    const saved = await removeLabel(input, actor);
    revalidatePath("/constitution", "layout");
    return saved;
  },
);
