"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { addKeyPointSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Adds a key point by hand (editors and up). */
export const addKeyPointAction = defineAction(
  { role: "editor", input: addKeyPointSchema },
  async (input, { actor }) => {
    const name = await keyPoints.add(input.text, actor);
    revalidatePath("/playbook", "layout");
    return { name };
  },
);
