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
  | "invalid_input"
  | "rate_limited"
  | "unavailable"
  | "internal";

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: unknown) {
    super("bad_request", 400, message, details);
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
  constructor(message: string, details?: unknown) {
    super("conflict", 409, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super("payload_too_large", 413, message);
  }
}

/** Input that parsed but breaks a rule; `details` lists each problem with its path. */
export class ValidationError extends AppError {
  constructor(message: string, details?: { path: string; message: string }[]) {
    super("invalid_input", 422, message, details);
  }
}

export class RateLimitedError extends AppError {
  constructor(message = "Too many requests; try again shortly.") {
    super("rate_limited", 429, message);
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

/** Turns a zod error into a ValidationError whose details name each bad field. */
export function validationErrorFrom(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  message = "The input is invalid.",
): ValidationError {
  return new ValidationError(
    message,
    issues.map((issue) => ({
      path: issue.path.map(String).join(".") || "(root)",
      message: issue.message,
    })),
  );
}
