"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { pruneDecisionSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Rejects prune proposals (approvers and admins): the entries stay. */
export const rejectPruneAction = defineAction(
  { role: "approver", input: pruneDecisionSchema },
  async (input, { actor }) => {
    await keyPoints.reject(input.names, actor);
    revalidatePath("/playbook", "layout");
    return { names: input.names };
  },
);
