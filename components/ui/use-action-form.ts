"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  get,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from "react-hook-form";
import type { z } from "zod";
import { fieldIssuesOf, type ActionError, type ActionResult } from "@/lib/actions/result";
import { useAction } from "./use-action";

type FormSchema = z.ZodType<FieldValues, FieldValues>;

/** The message react-hook-form holds for `path` ("weights.tasteful" included), if any. */
export function formError(errors: FieldErrors, path: string): string | undefined {
  return (get(errors, path) as FieldError | undefined)?.message;
}

/** A react-hook-form form checked by `schema` (the one its server action validates with). */
export function useSchemaForm<S extends FormSchema>(
  schema: S,
  defaultValues: DefaultValues<z.input<S>>,
) {
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema),
    defaultValues,
  });
}

/** Puts each field issue of a refusal on its field, so it shows where the browser's own check would. */
export function putFieldIssues<T extends FieldValues>(
  form: UseFormReturn<T, unknown, FieldValues>,
  error: ActionError,
): void {
  for (const issue of fieldIssuesOf(error))
    form.setError(issue.path as Path<T>, { type: "server", message: issue.message });
}

/**
 * A form over a server action and the zod schema that action validates with: the schema
 * checks the input in the browser before anything is sent, and the field issues of a
 * refusal are put on the same fields. `submit` is the form's onSubmit.
 */
export function useActionForm<S extends FormSchema, T>(
  schema: S,
  action: (input: z.output<S>) => Promise<ActionResult<T>>,
  options: {
    defaultValues: DefaultValues<z.input<S>>;
    onSuccess?: (data: T, form: UseFormReturn<z.input<S>, unknown, z.output<S>>) => void;
  },
) {
  const form = useSchemaForm(schema, options.defaultValues);
  const mutation = useAction(action, { onSuccess: (data) => options.onSuccess?.(data, form) });
  const submit = form.handleSubmit((input) =>
    mutation.mutate(input, { onError: (failure) => putFieldIssues(form, failure.error) }),
  );
  /** The client's or the server's message for one field. */
  const error = (path: string) => formError(form.formState.errors, path);
  /** A refusal that names no field, shown once for the whole form. */
  const formFailure =
    mutation.error && fieldIssuesOf(mutation.error.error).length === 0 ? mutation.error : null;
  return { form, mutation, submit, error, formFailure };
}
