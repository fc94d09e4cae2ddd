"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { auditLog } from "@/lib/db/audit";
import { loadDemo } from "@/lib/services/demo";
import { defineAction } from "./client";

/**
 * Loads the demo (editors and up; idempotent): the shipped transcripts, a team's month of
 * sessions through the hooks' path and a rated playbook (lib/services/demo.ts); audited
 * with what it added.
 */
export const loadDemoAction = defineAction(
  { role: "editor", input: z.object({}) },
  async (_, { actor }) => {
    const summary = await loadDemo(actor);
    const result = {
      sessions: summary.sessions,
      accepted: summary.accepted,
      duplicates: summary.duplicates,
      keyPointsAdded: summary.keyPointsAdded.length,
      proposedForPruning: summary.proposedForPruning,
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
