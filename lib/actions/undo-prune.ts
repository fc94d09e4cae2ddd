"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { undoPruneSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Restores a pruned key point with its history (approvers and admins): to the prune queue if its counts still meet the rule, else into use. */
export const undoPruneAction = defineAction(
  { role: "approver", input: undoPruneSchema },
  async (input, { actor }) => {
    const status = await keyPoints.undo(input.name, actor);
    revalidatePath("/playbook", "layout");
    return { name: input.name, status };
  },
);
