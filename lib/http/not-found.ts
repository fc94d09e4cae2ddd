import "server-only";
import { notFound } from "next/navigation";
import { NotFoundError } from "@/lib/errors";

/** Awaits a page's data; a NotFoundError renders the 404 page, anything else propagates. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
