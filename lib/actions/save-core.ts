"use server";
import { revalidatePath } from "next/cache";
import { CORE_FILE } from "@/lib/constitution/schema";
import { constitutionVersions } from "@/lib/db/constitution";
import { saveCoreSchema } from "@/lib/schemas/constitution";
import { defineAction } from "./client";

/**
 * Saves `core.yaml` as a new constitution version. The whole constitution is validated:
 * a change that breaks an overlay or an eval file (say, removing a principle it names)
 * is refused with every issue in `error.details`, and a stale base version is refused
 * as a conflict. Nothing is saved in either case.
 */
export const saveCoreAction = defineAction(
  { role: "editor", input: saveCoreSchema },
  async (input, { actor }) => {
    const version = await constitutionVersions.saveFile(
      { path: CORE_FILE, ...input, action: "constitution.save_core" },
      actor,
    );
    revalidatePath("/constitution", "layout");
    return { versionId: version.id };
  },
);
