/**
 * Charter's errors: each has a stable code and an HTTP status, and is mapped to a
 * response in one place (lib/http/route.ts and lib/actions/client.ts). Throw them;
 * do not catch and rethrow.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "invalid_input"
  | "unavailable"
  | "internal";

/**
 * One problem with one field of an input. `path` is the field ("weights.tasteful"), or
 * "(root)" for the input as a whole. A refused constitution also says where the problem
 * is: `file`, `line`, `column`, the rule's `field` and the `reason`.
 */
export type FieldIssue = {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  field?: string;
  reason?: string;
};

/** A conflict with a newer stored version names it, when there is one. */
export type ConflictDetails = { currentVersionId: number | null };

/** The body of every error answer and refused action; `details` is typed by `code`. */
export type ErrorBody =
  | { code: "invalid_input"; message: string; details?: FieldIssue[] }
  | { code: "conflict"; message: string; details?: ConflictDetails }
  | {
      code: Exclude<ErrorCode, "invalid_input" | "conflict">;
      message: string;
      details?: undefined;
    };

export abstract class AppError extends Error {
  protected constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: FieldIssue[] | ConflictDetails,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): { error: ErrorBody } {
    // Each subclass's constructor pairs its code with the details it may carry.
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      } as ErrorBody,
    };
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super("bad_request", 400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "Sign in or send a valid API key.") {
    super("unauthorized", 401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "Your role does not allow this.") {
    super("forbidden", 403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super("not_found", 404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: ConflictDetails) {
    super("conflict", 409, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super("payload_too_large", 413, message);
  }
}

/** 415: a body in a Content-Type or Content-Encoding the route does not take. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super("unsupported_media_type", 415, message);
  }
}

/** Input that parsed but breaks a rule; `details` lists each problem with its path. */
export class ValidationError extends AppError {
  constructor(message: string, details?: FieldIssue[]) {
    super("invalid_input", 422, message, details);
  }
}

/** 503: the server cannot do this now. With `retryAfterSeconds`, responses carry `Retry-After`. */
export class UnavailableError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super("unavailable", 503, message);
  }
}

/** What a client is told to wait, in seconds, when the database could not be asked: about one connection timeout. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database could not be reached or had no connection to spare. Never a verdict on
 * the caller: a hook spools the event and sends it again after `Retry-After`.
 */
export class ServiceUnavailableError extends UnavailableError {
  constructor(
    message = "The database is unavailable; try again shortly.",
    retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS,
  ) {
    super(message, retryAfterSeconds);
  }
}

type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };

/**
 * A zod issue's path as one string: "weights.tasteful", "tags.0", or `root` ("(root)"
 * unless the caller names the whole input otherwise) for the whole input.
 */
export function issuePath(path: readonly PropertyKey[], root = "(root)"): string {
  return path.map(String).join(".") || root;
}

/** The one rendering of zod issues (pure: the engine, the CLI and the app share it): a `{ path, message }` per issue. */
export function fieldIssues(issues: readonly Issue[], root?: string): FieldIssue[] {
  return issues.map((issue) => ({ path: issuePath(issue.path, root), message: issue.message }));
}

/** Zod issues as "path: message" lines, for people (forms, logs, the CLI, the contract of a reply). */
export function issueLines(issues: readonly Issue[], root?: string): string[] {
  return fieldIssues(issues, root).map((issue) => `${issue.path}: ${issue.message}`);
}

/** Turns a zod error into a ValidationError whose details name each bad field. */
export function validationErrorFrom(
  issues: readonly Issue[],
  message = "The input is invalid.",
): ValidationError {
  return new ValidationError(message, fieldIssues(issues));
}
