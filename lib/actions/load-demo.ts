"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { DEMO_DIR, importTranscripts, transcriptFiles } from "@/lib/services/import";
import { defineAction } from "./client";

/** Loads the shipped demo sessions through the transcript import path (editors and up; idempotent). */
export const loadDemoAction = defineAction({ role: "editor", input: z.object({}) }, async () => {
  const summary = await importTranscripts(await transcriptFiles(DEMO_DIR));
  revalidatePath("/", "layout");
  return { sessions: summary.sessions, accepted: summary.accepted, duplicates: summary.duplicates };
});
