"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ActionError, ActionResult } from "@/lib/actions/result";

/** An action's refusal, carried through react-query as an error. */
export class ActionFailure extends Error {
  constructor(readonly error: ActionError) {
    super(error.message);
  }
}

/** Runs a server action as a react-query mutation; on success the page's server data is refreshed. */
export function useAction<I, T>(
  action: (input: I) => Promise<ActionResult<T>>,
  options: { onSuccess?: (data: T) => void } = {},
) {
  const router = useRouter();
  return useMutation<T, ActionFailure, I>({
    mutationFn: async (input) => {
      const result = await action(input);
      if (!result.ok) throw new ActionFailure(result.error);
      return result.data;
    },
    onSuccess: (data) => {
      options.onSuccess?.(data);
      router.refresh();
    },
  });
}
