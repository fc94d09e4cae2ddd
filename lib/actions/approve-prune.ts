"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { pruneDecisionSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Approves prune proposals (approvers and admins) that still meet the rule when decided; recoverable with undo. */
export const approvePruneAction = defineAction(
  { role: "approver", input: pruneDecisionSchema },
  async (input, { actor }) => {
    await keyPoints.approve(input.names, actor);
    revalidatePath("/playbook", "layout");
    return { names: input.names };
  },
);
