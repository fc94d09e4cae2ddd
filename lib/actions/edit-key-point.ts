"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { editKeyPointSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Edits a key point's text (editors and up); its counts and name stay. */
export const editKeyPointAction = defineAction(
  { role: "editor", input: editKeyPointSchema },
  async (input, { actor }) => {
    await keyPoints.edit(input.name, input.text, actor);
    revalidatePath("/playbook", "layout");
    return { name: input.name };
  },
);
