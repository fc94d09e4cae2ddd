"use server";
import { revalidatePath } from "next/cache";
import { playbookStore } from "@/lib/db/playbook";
import { pruneDecisionSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Approves prune proposals (approvers and admins) that still meet the rule when decided; recoverable with undo. */
export const approvePruneAction = defineAction(
  { role: "approver", input: pruneDecisionSchema },
  async (input, { actor }) => {
    await playbookStore.approve(input.names, actor);
    revalidatePath("/playbook", "layout");
    return { names: input.names };
  },
);
