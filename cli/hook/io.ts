/** Where the hook writes: stdout is read by Claude Code, stderr is for people. */
export type Io = { out(text: string): void; err(line: string): void };

/**
 * One visible line, whatever the message holds: JSON.parse errors quote the input, which
 * can be a spool file's garbage, NUL bytes and carriage returns included.
 */
export function oneLine(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .trim()
    .replace(
      /[\u0000-\u0008\u000b-\u001f\u007f]/g,
      (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
    );
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (line) => process.stderr.write(`charter: ${oneLine(line)}\n`),
};

export const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

/** The errno code of a failed file-system call (ENOENT, EACCES, ...). */
export const errno = (error: unknown) => (error as NodeJS.ErrnoException).code;
