"use server";
import { retrieveSchema } from "@/lib/schemas/constitution";
import { retrieve } from "@/lib/services/constitution";
import { defineAction } from "./client";

/** The retrieval playground: detected domains, principles in conflict order, and debug info. */
export const retrieveAction = defineAction(
  { role: "viewer", input: retrieveSchema },
  async (input) => retrieve(input.prompt, { topK: input.topK, domain: input.domain }),
);
