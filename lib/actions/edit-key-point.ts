"use server";
import { revalidatePath } from "next/cache";
import { playbookStore } from "@/lib/db/playbook";
import { editKeyPointSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Edits a key point's text (editors and up); its counts and name stay. */
export const editKeyPointAction = defineAction(
  { role: "editor", input: editKeyPointSchema },
  async (input, { actor }) => {
    await playbookStore.edit(input.name, input.text, actor);
    revalidatePath("/playbook", "layout");
    return { name: input.name };
  },
);
