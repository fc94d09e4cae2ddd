"use server";
import { revalidatePath } from "next/cache";
import { constitutionVersions } from "@/lib/db/constitution";
import { rollbackSchema } from "@/lib/schemas/constitution";
import { defineAction } from "./client";

/** Makes an earlier version current again, as a new version; approvers and admins only. */
export const rollbackConstitutionAction = defineAction(
  { role: "approver", input: rollbackSchema },
  async (input, { actor }) => {
    const version = await constitutionVersions.rollback(input, actor);
    revalidatePath("/constitution", "layout");
    return { versionId: version.id };
  },
);
