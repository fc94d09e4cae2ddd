/**
 * Server-side logging: one line per event, errors with their message but never shown
 * to users. Everything goes to stderr, so that CLI output on stdout stays parseable.
 */
function stamp(): string {
  return new Date().toISOString();
}

export const log = {
  info(message: string): void {
    console.error(`${stamp()} [charter] ${message}`);
  },
  warn(message: string): void {
    console.warn(`${stamp()} [charter] warning: ${message}`);
  },
  error(message: string, error?: unknown): void {
    const detail =
      error instanceof Error
        ? `${error.name}: ${error.message}\n${error.stack ?? ""}`
        : error === undefined
          ? ""
          : String(error);
    console.error(`${stamp()} [charter] error: ${message}${detail ? `\n${detail}` : ""}`);
  },
};
