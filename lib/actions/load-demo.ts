"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { auditLog } from "@/lib/db/audit";
import { DEMO_DIR, importTranscripts, transcriptFiles } from "@/lib/services/import";
import { defineAction } from "./client";

/** Loads the shipped demo sessions through the transcript import path (editors and up; idempotent); audited with what it added. */
export const loadDemoAction = defineAction(
  { role: "editor", input: z.object({}) },
  async (_, { actor }) => {
    const summary = await importTranscripts(await transcriptFiles(DEMO_DIR));
    const result = {
      sessions: summary.sessions,
      accepted: summary.accepted,
      duplicates: summary.duplicates,
    };
    await auditLog.record({
      actor,
      action: "demo.load",
      objectType: "demo",
      objectId: "demo",
      after: result,
    });
    revalidatePath("/", "layout");
    return result;
  },
);
