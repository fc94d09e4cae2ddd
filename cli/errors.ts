/** Exit codes of the `charter` command, as documented in the README. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;

/** An error the CLI reports as one line on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.invalid,
  ) {
    super(message);
    this.name = "CliError";
  }
}
