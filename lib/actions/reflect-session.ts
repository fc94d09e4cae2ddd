"use server";
import { revalidatePath } from "next/cache";
import { reflectSessionSchema } from "@/lib/schemas/playbook";
import { reflectSession } from "@/lib/services/reflect";
import { defineAction } from "./client";

/** Runs the playbook reflector on a session (editors and up); without an LLM it says what to configure. */
export const reflectSessionAction = defineAction(
  { role: "editor", input: reflectSessionSchema },
  async ({ sessionId }, { actor }) => {
    const outcome = await reflectSession(sessionId, actor);
    revalidatePath(`/sessions/${sessionId}`);
    revalidatePath("/playbook", "layout");
    return outcome;
  },
);
