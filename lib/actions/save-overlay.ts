"use server";
import { revalidatePath } from "next/cache";
import { constitutionVersions } from "@/lib/db/constitution";
import { saveOverlaySchema } from "@/lib/schemas/constitution";
import { defineAction } from "./client";

/**
 * Saves an overlay as a new constitution version. Invalid YAML or rules are refused
 * with every issue (file, line, column, field, reason) in `error.details`; a stale
 * base version is refused as a conflict. Nothing is saved in either case.
 */
export const saveOverlayAction = defineAction(
  { role: "editor", input: saveOverlaySchema },
  async (input, { actor }) => {
    const version = await constitutionVersions.saveOverlay(input, actor);
    revalidatePath("/constitution", "layout");
    return { versionId: version.id };
  },
);
