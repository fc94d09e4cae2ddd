"use server";
import { previewChangeSchema } from "@/lib/schemas/constitution";
import { previewChange } from "@/lib/services/constitution-eval";
import { defineAction } from "./client";

/**
 * The impact preview shown before a save: the eval set on the base version and the
 * draft, and the latest stored prompts replayed under both. Writes nothing.
 */
export const previewConstitutionChangeAction = defineAction(
  { role: "editor", input: previewChangeSchema },
  async (input) => previewChange(input),
);
