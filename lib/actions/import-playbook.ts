"use server";
import { revalidatePath } from "next/cache";
import { keyPoints } from "@/lib/db/key-points";
import { ValidationError } from "@/lib/errors";
import { loadPlaybook } from "@/lib/playbook";
import { importPlaybookSchema } from "@/lib/schemas/playbook";
import { defineAction } from "./client";

/** Imports a playbook.json (legacy formats migrated by the playbook spec's rules) into the database (editors and up). */
export const importPlaybookAction = defineAction(
  { role: "editor", input: importPlaybookSchema },
  async (input, { actor }) => {
    const { playbook, warnings } = loadPlaybook(input.text);
    if (playbook.key_points.length === 0)
      throw new ValidationError(
        `Nothing to import: ${warnings.join("; ") || "the playbook has no key points"}.`,
      );
    const result = await keyPoints.importPlaybook(playbook, actor);
    revalidatePath("/playbook", "layout");
    return { ...result, warnings };
  },
);
