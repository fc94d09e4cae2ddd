import http from "node:http";

/**
 * What runs where Node hands a request to an HTTP server, before the server's own
 * handler: `next start` owns the server and its socket, and no route sees them, so the
 * client-IP stamp, the drain's tracking, the method guard and the database gate sit here.
 * `handle` calls `pass()` to let the request on (at most once), or answers it itself.
 */
export type BeforeRequest = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pass: () => void,
  server: http.Server,
) => void;

const installed = globalThis as unknown as { __charterBeforeRequest?: Set<string> };

/**
 * Runs `handle` before every request of every HTTP server in this process, once per
 * `name` (a module evaluated twice installs once). The last installed runs first.
 */
export function beforeEachRequest(name: string, handle: BeforeRequest): void {
  const names = (installed.__charterBeforeRequest ??= new Set());
  if (names.has(name)) return;
  names.add(name);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitAfter(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event !== "request") return Reflect.apply(emit, this, [event, ...args]) as boolean;
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    let passed = false;
    handle(
      req,
      res,
      () => {
        if (passed) return;
        passed = true;
        Reflect.apply(emit, this, [event, ...args]);
      },
      this,
    );
    return true;
  } as typeof emit;
}
