/** What every server action returns: data, or an error the form can show. */
export type ActionError = {
  code: string;
  message: string;
  details?: { path: string; message: string }[] | unknown;
};
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };
