"use server";
import { revalidatePath } from "next/cache";
import { weightSets } from "@/lib/db/weights";
import { saveWeightsSchema } from "@/lib/schemas/turns";
import { defineAction } from "./client";

/** Saves a new weight set (admins); stored totals are recomputed in the background. */
export const saveWeightsAction = defineAction(
  { role: "admin", input: saveWeightsSchema },
  async (input, { actor }) => {
    const { weightSet, jobId } = await weightSets.save(input.weights, input.message, actor);
    revalidatePath("/weights");
    return { weightSetId: weightSet.id, jobId };
  },
);
