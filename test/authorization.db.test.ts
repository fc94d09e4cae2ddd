import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { acceptLabelAction } from "@/lib/actions/accept-label";
import { addKeyPointAction } from "@/lib/actions/add-key-point";
import { applyExtractionAction } from "@/lib/actions/apply-extraction";
import { approvePruneAction } from "@/lib/actions/approve-prune";
import { createApiKeyAction } from "@/lib/actions/create-api-key";
import { draftLabelAction } from "@/lib/actions/draft-label";
import { editKeyPointAction } from "@/lib/actions/edit-key-point";
import { importPlaybookAction } from "@/lib/actions/import-playbook";
import { inviteUserAction } from "@/lib/actions/invite-user";
import { issueSignInLinkAction } from "@/lib/actions/issue-sign-in-link";
import { loadDemoAction } from "@/lib/actions/load-demo";
import { overrideScoreAction } from "@/lib/actions/override-score";
import { previewConstitutionChangeAction } from "@/lib/actions/preview-constitution-change";
import { reflectSessionAction } from "@/lib/actions/reflect-session";
import { rejectPruneAction } from "@/lib/actions/reject-prune";
import { removeLabelAction } from "@/lib/actions/remove-label";
import type { ActionResult } from "@/lib/actions/result";
import { retrieveAction } from "@/lib/actions/retrieve";
import { revokeApiKeyAction } from "@/lib/actions/revoke-api-key";
import { rollbackConstitutionAction } from "@/lib/actions/rollback-constitution";
import { saveCoreAction } from "@/lib/actions/save-core";
import { saveOverlayAction } from "@/lib/actions/save-overlay";
import { saveWeightsAction } from "@/lib/actions/save-weights";
import { setUserBlockedAction } from "@/lib/actions/set-user-blocked";
import { setUserRoleAction } from "@/lib/actions/set-user-role";
import { suggestEvalFixAction } from "@/lib/actions/suggest-eval-fix";
import { undoPruneAction } from "@/lib/actions/undo-prune";
import { GET as health } from "@/app/api/health/route";
import { POST as events } from "@/app/api/v1/events/route";
import { POST as otelTraces } from "@/app/api/public/otel/v1/traces/route";
import { exportOf } from "@/lib/otel/fixtures";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { GET as recompute } from "@/app/api/v1/recompute/route";
import { GET as turns } from "@/app/api/v1/turns/route";
import { requirePage } from "@/lib/auth/page";
import { CORE_FILE } from "@/lib/constitution";
import { apiKeys } from "@/lib/db/api-keys";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { backgroundSettled } from "@/lib/background";
import { loadDemo } from "@/lib/services/demo";
import { db } from "@/lib/db/client";
import { constitutionVersions } from "@/lib/db/constitution";
import { orchestrationLog } from "@/lib/db/orchestration-log";
import { keyPoints } from "@/lib/db/key-points";
import { pruneQueue } from "@/lib/db/prune-queue";
import { users } from "@/lib/db/users";
import { baseUrl, resetEnv } from "@/lib/env";
import { ensureConstitution } from "@/lib/services/constitution";
import { acceptLabel } from "@/lib/services/review-labels";
import { DEMO_DIR, importTranscripts, transcriptFiles } from "@/lib/services/import";
import { setupTestDatabase, unique } from "@/test/db";
import { startScriptedLlmServer, type ScriptedLlmServer } from "@/test/llm-server";
import { sessionCookie } from "@/test/sign-in";

// The authorization matrix: every server action, every route handler and every dashboard
// page, called directly by every kind of caller with real credentials (a session made by
// a real sign-in link, real API keys). A refused call changes no row anywhere; an allowed
// call that changes anything outside the agents' own data leaves an audit row naming the
// caller. Better Auth's own endpoints are the third part of the matrix, in
// lib/auth/endpoints.db.test.ts (every endpoint x every caller: 404, nothing changed).
//
// The expectations are this file's own: the ranks and each key's reach are written out
// here, not read from lib/auth/roles.ts, so that a wrong rule there fails here.

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({ headers: async () => requestHeaders }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
class Redirected extends Error {}
class Forbidden extends Error {}
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw new Redirected(to);
  },
  forbidden: () => {
    throw new Forbidden();
  },
  notFound: () => {
    throw new Error("not found");
  },
}));

const ROOT = path.resolve(import.meta.dirname, "..");
const RANKS = ["viewer", "editor", "approver", "admin"] as const;
type Rank = (typeof RANKS)[number];
type Scope = "ingest" | "read";

/** Who calls, and what the test expects each may reach. `scopes` is what a key may use now, written out by hand. */
type Caller = {
  name: string;
  headers: Record<string, string>;
  userId?: string;
  role?: Rank;
  scopes?: Scope[];
};
const callers: Caller[] = [];

/** What a target demands: a role for people, a scope for keys (none: keys are refused), or any credential at all. */
type Demand = { role: Rank; scope?: Scope } | "any-credential" | "public";

type Outcome = { status: "ok" | "unauthorized" | "forbidden" | "failed"; detail: string };

type Target = {
  name: string;
  demand: Demand;
  /** Tables the target may change without an audit row: what agents send and what runs record. */
  data?: readonly string[];
  /** Makes the state the call needs (fresh for each caller) and returns the call. */
  prepare: () => Promise<() => Promise<Outcome>>;
};

/** The agents' data and run records: written by ingestion and imports, which the events table attributes. */
const AGENT_DATA = [
  "agent_event",
  "agent_session",
  "turn",
  "turn_score",
  "tool_call",
  "principle_stat",
  "principle_usage",
  "session_outcome",
  "orchestration_event",
  "llm_call",
  "reflection",
  "background_job",
  "constitution_embedding",
  "constitution_eval_run",
] as const;

function expected(caller: Caller, demand: Demand): Outcome["status"] {
  if (demand === "public") return "ok";
  if (!caller.role && !caller.scopes) return "unauthorized";
  if (demand === "any-credential") return "ok";
  if (caller.role)
    return RANKS.indexOf(caller.role) >= RANKS.indexOf(demand.role) ? "ok" : "forbidden";
  if (demand.scope === undefined) return "unauthorized";
  return caller.scopes!.includes(demand.scope) ? "ok" : "forbidden";
}

// ---- callers -----------------------------------------------------------------------

async function signedInAs(role: Rank): Promise<Caller> {
  const user = await users.create(
    { email: `${unique(`authz-${role}`)}@example.test`, name: role, role },
    SYSTEM_ACTOR,
  );
  return {
    name: role,
    headers: { cookie: await sessionCookie(user.email) },
    userId: user.id,
    role,
  };
}

async function keyOf(
  owner: Rank,
  scopes: Scope[],
): Promise<{ key: string; id: string; ownerId: string }> {
  const user = await users.create(
    { email: `${unique(`authz-owner-${owner}`)}@example.test`, name: owner, role: owner },
    SYSTEM_ACTOR,
  );
  const created = await apiKeys.create(
    { name: unique("authz"), scopes, ownerId: user.id },
    SYSTEM_ACTOR,
  );
  return { key: created.key, id: created.id, ownerId: user.id };
}

async function makeCallers(): Promise<void> {
  callers.push({ name: "anonymous", headers: {} });
  for (const role of RANKS) callers.push(await signedInAs(role));
  callers.push({
    name: "key: ingest",
    headers: { "x-api-key": (await keyOf("admin", ["ingest"])).key },
    scopes: ["ingest"],
  });
  callers.push({
    name: "key: read",
    headers: { authorization: `Bearer ${(await keyOf("admin", ["read"])).key}` },
    scopes: ["read"],
  });
  callers.push({
    name: "key: ingest+read",
    headers: { "x-api-key": (await keyOf("editor", ["ingest", "read"])).key },
    scopes: ["ingest", "read"],
  });
  const revoked = await keyOf("admin", ["ingest", "read"]);
  await apiKeys.revoke(revoked.id, SYSTEM_ACTOR);
  callers.push({ name: "revoked key", headers: { "x-api-key": revoked.key } });
  const blocked = await keyOf("editor", ["ingest", "read"]);
  await users.setBlocked(blocked.ownerId, true, SYSTEM_ACTOR);
  callers.push({ name: "blocked owner's key", headers: { "x-api-key": blocked.key } });
  // An editor's key demoted to viewer keeps only what a viewer may do.
  const demoted = await keyOf("editor", ["ingest", "read"]);
  await users.setRole(demoted.ownerId, "viewer", SYSTEM_ACTOR);
  callers.push({
    name: "demoted owner's key",
    headers: { "x-api-key": demoted.key },
    scopes: ["read"],
  });
  // A blocked person's old cookie: blocking ends the session.
  const gone = await signedInAs("admin");
  await users.setBlocked(gone.userId!, true, SYSTEM_ACTOR);
  callers.push({ name: "blocked admin's cookie", headers: gone.headers });
}

// ---- what a call changed ---------------------------------------------------------------

/**
 * Tables hashed whole, on columns that are not bookkeeping: Better Auth stamps a key's last
 * use and refreshes a session on reads. Both are small.
 */
const WHOLE_TABLES: Record<string, string> = {
  apikey: 'id, name, enabled, permissions, "referenceId", "expiresAt", key',
  session: 'id, token, "userId", "impersonatedBy"',
};

let tables: string[] = [];
/** Transaction ids from here on are this test's: older rows are counted, not hashed (the shared database is large). */
let firstXid = 0n;

/**
 * Per table: its row count, and a hash of every row written since the test began (an
 * insert or an update gives a row a new xmin; a delete lowers the count).
 */
async function fingerprint(): Promise<Record<string, string>> {
  const parts = tables.map((t) =>
    WHOLE_TABLES[t]
      ? `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint), 0)::text AS h FROM (SELECT ${WHOLE_TABLES[t]} FROM "${t}") r`
      : `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(sum(hashtext(r::text)::bigint) FILTER (WHERE r.xmin::text::bigint >= ${firstXid}), 0)::text AS h FROM "${t}" r`,
  );
  const rows = await db().$queryRawUnsafe<{ t: string; h: string }[]>(parts.join(" UNION ALL "));
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return tables.filter((t) => before[t] !== after[t]);
}

/** The tables once the work a call left running is done: the retrieval log's batch and the deferred writes (a key's last use, session bookkeeping). */
async function settled(): Promise<Record<string, string>> {
  await orchestrationLog().flush();
  await backgroundSettled();
  return fingerprint();
}

async function newAuditRows(sinceId: bigint) {
  return db().auditLog.findMany({ where: { id: { gt: sinceId } }, orderBy: { id: "asc" } });
}

async function lastAuditId(): Promise<bigint> {
  const row = await db().auditLog.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return BigInt(row?.id ?? 0);
}

// ---- targets ---------------------------------------------------------------------------

function action<T>(run: () => Promise<ActionResult<T>>): () => Promise<Outcome> {
  return async () => {
    const result = await run();
    if (result.ok) return { status: "ok", detail: "ok" };
    const status =
      result.error.code === "unauthorized"
        ? "unauthorized"
        : result.error.code === "forbidden"
          ? "forbidden"
          : "failed";
    return { status, detail: `${result.error.code}: ${result.error.message}` };
  };
}

function http(
  handler: (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>,
  method: string,
  url: string,
  body?: unknown,
): () => Promise<Outcome> {
  return async () => {
    const headers = new Headers(requestHeaders);
    headers.set("origin", baseUrl());
    if (body !== undefined) headers.set("content-type", "application/json");
    const res = await handler(
      new Request(new URL(url, baseUrl()), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { params: Promise.resolve({}) },
    );
    const text = await res.text();
    const status = res.ok
      ? "ok"
      : res.status === 401
        ? "unauthorized"
        : res.status === 403
          ? "forbidden"
          : "failed";
    return { status, detail: `${res.status} ${text.slice(0, 200)}` };
  };
}

async function current() {
  const version = await constitutionVersions.current();
  if (!version) throw new Error("no constitution");
  return version;
}
const fileOf = (version: Awaited<ReturnType<typeof current>>, file: string) =>
  version.files.find((f) => f.path === file)!.text;

async function proposedPoint(): Promise<string> {
  const name = await keyPoints.add(`authz ${unique("kp")}`, SYSTEM_ACTOR);
  await keyPoints.applyExtraction(
    { new_key_points: [], evaluations: [1, 2, 3].map(() => ({ name, rating: "harmful" })) },
    null,
    SYSTEM_ACTOR,
  );
  return name;
}

let reflector: ScriptedLlmServer | undefined;
let turnId = "";
let sessionId = "";
let adminUserId = "";

const targets: Target[] = [
  // Server actions (lib/actions): people only, by role.
  {
    name: "addKeyPointAction",
    demand: { role: "editor" },
    prepare: async () => action(() => addKeyPointAction({ text: `authz ${unique("add")}` })),
  },
  {
    name: "applyExtractionAction",
    demand: { role: "editor" },
    prepare: async () =>
      action(() =>
        applyExtractionAction({
          extraction: { new_key_points: [`authz ${unique("extract")}`], evaluations: [] },
        }),
      ),
  },
  {
    name: "approvePruneAction",
    demand: { role: "approver" },
    prepare: async () => {
      const name = await proposedPoint();
      return action(() => approvePruneAction({ names: [name] }));
    },
  },
  {
    name: "rejectPruneAction",
    demand: { role: "approver" },
    prepare: async () => {
      const name = await proposedPoint();
      return action(() => rejectPruneAction({ names: [name] }));
    },
  },
  {
    name: "undoPruneAction",
    demand: { role: "approver" },
    prepare: async () => {
      const name = await proposedPoint();
      await pruneQueue.approve([name], SYSTEM_ACTOR);
      return action(() => undoPruneAction({ name }));
    },
  },
  {
    name: "editKeyPointAction",
    demand: { role: "editor" },
    prepare: async () => {
      const name = await keyPoints.add(`authz ${unique("edit")}`, SYSTEM_ACTOR);
      return action(() => editKeyPointAction({ name, text: `edited ${unique("edit")}` }));
    },
  },
  {
    name: "importPlaybookAction",
    demand: { role: "editor" },
    prepare: async () =>
      action(() =>
        importPlaybookAction({
          text: JSON.stringify({
            key_points: [
              {
                name: unique("kpt_authz"),
                text: `imported ${unique("imp")}`,
                helpful: 0,
                harmful: 0,
              },
            ],
          }),
        }),
      ),
  },
  {
    name: "createApiKeyAction",
    demand: { role: "admin" },
    prepare: async () =>
      action(() => createApiKeyAction({ name: unique("authz-new"), scopes: ["read"] })),
  },
  {
    name: "revokeApiKeyAction",
    demand: { role: "admin" },
    prepare: async () => {
      const { id } = await apiKeys.create(
        { name: unique("authz-victim"), scopes: ["ingest"], ownerId: adminUserId },
        SYSTEM_ACTOR,
      );
      return action(() => revokeApiKeyAction({ id }));
    },
  },
  {
    name: "inviteUserAction",
    demand: { role: "admin" },
    prepare: async () =>
      action(() =>
        inviteUserAction({
          email: `${unique("invitee")}@example.test`,
          name: "Invitee",
          role: "admin",
        }),
      ),
  },
  {
    name: "issueSignInLinkAction",
    demand: { role: "admin" },
    prepare: async () => {
      const target = await users.create(
        { email: `${unique("linked")}@example.test`, name: "Linked", role: "admin" },
        SYSTEM_ACTOR,
      );
      return action(() => issueSignInLinkAction({ userId: target.id }));
    },
  },
  {
    name: "setUserRoleAction",
    demand: { role: "admin" },
    prepare: async () => {
      const target = await users.create(
        { email: `${unique("promoted")}@example.test`, name: "Promoted", role: "viewer" },
        SYSTEM_ACTOR,
      );
      return action(() => setUserRoleAction({ userId: target.id, role: "admin" }));
    },
  },
  {
    name: "setUserBlockedAction",
    demand: { role: "admin" },
    prepare: async () => {
      const target = await users.create(
        { email: `${unique("blocked")}@example.test`, name: "Blocked", role: "admin" },
        SYSTEM_ACTOR,
      );
      return action(() => setUserBlockedAction({ userId: target.id, blocked: true }));
    },
  },
  {
    name: "loadDemoAction",
    demand: { role: "editor" },
    data: AGENT_DATA,
    prepare: async () => action(() => loadDemoAction({})),
  },
  {
    name: "overrideScoreAction",
    demand: { role: "editor" },
    prepare: async () =>
      action(() =>
        overrideScoreAction({
          turnId,
          principle: "ethical",
          value: Math.round(Math.random() * 1000) / 1000,
          reason: `authz ${unique("why")}`,
        }),
      ),
  },
  {
    name: "previewConstitutionChangeAction",
    demand: { role: "editor" },
    data: AGENT_DATA,
    prepare: async () => {
      const base = await current();
      return action(() =>
        previewConstitutionChangeAction({
          baseVersionId: base.id,
          path: CORE_FILE,
          text: `${fileOf(base, CORE_FILE)}\n# preview ${unique("p")}\n`,
          replay: 0,
        }),
      );
    },
  },
  {
    name: "draftLabelAction",
    demand: { role: "editor" },
    prepare: async () =>
      action(() =>
        draftLabelAction({
          prompt: `authz ${unique("draft")}`,
          domains: [],
          verdict: "domains_only",
          turnId,
        }),
      ),
  },
  {
    name: "acceptLabelAction",
    demand: { role: "editor" },
    data: ["constitution_embedding"],
    prepare: async () => {
      const base = await current();
      return action(() =>
        acceptLabelAction({
          prompt: `authz ${unique("label")}`,
          domains: ["coding"],
          verdict: "should_apply",
          principle: "CODE.TESTS.1",
          turnId,
          baseVersionId: base.id,
          confirmed: true,
        }),
      );
    },
  },
  {
    name: "removeLabelAction",
    demand: { role: "editor" },
    data: ["constitution_embedding"],
    prepare: async () => {
      const prompt = `authz ${unique("unlabel")}`;
      const { versionId } = await acceptLabel(
        {
          prompt,
          domains: [],
          verdict: "domains_only",
          turnId,
          baseVersionId: (await current()).id,
          confirmed: true,
        },
        SYSTEM_ACTOR,
      );
      return action(() => removeLabelAction({ prompt, baseVersionId: versionId }));
    },
  },
  {
    name: "reflectSessionAction",
    demand: { role: "editor" },
    data: AGENT_DATA,
    // The reflector talks to a scripted OpenAI-compatible server: an allowed run adds a key point, as the caller.
    prepare: async () =>
      action(async () => {
        process.env.OPENAI_BASE_URL = reflector!.url;
        process.env.OPENAI_API_KEY = "k";
        resetEnv();
        try {
          return await reflectSessionAction({ sessionId });
        } finally {
          delete process.env.OPENAI_BASE_URL;
          delete process.env.OPENAI_API_KEY;
          resetEnv();
        }
      }),
  },
  {
    name: "retrieveAction",
    demand: { role: "viewer" },
    data: AGENT_DATA,
    prepare: async () =>
      action(() => retrieveAction({ prompt: "write a SQL injection test for my own login form" })),
  },
  {
    name: "rollbackConstitutionAction",
    demand: { role: "approver" },
    data: ["constitution_embedding"],
    prepare: async () => {
      const before = await current();
      const saved = await constitutionVersions.saveFile(
        {
          path: CORE_FILE,
          text: `${fileOf(before, CORE_FILE)}\n# to roll back ${unique("r")}\n`,
          baseVersionId: before.id,
          message: "authz setup",
          action: "constitution.save_core",
        },
        SYSTEM_ACTOR,
      );
      return action(() =>
        rollbackConstitutionAction({
          toVersionId: before.id,
          baseVersionId: saved.id,
          message: "authz",
        }),
      );
    },
  },
  {
    name: "saveCoreAction",
    demand: { role: "editor" },
    data: ["constitution_embedding"],
    prepare: async () => {
      const base = await current();
      return action(() =>
        saveCoreAction({
          text: `${fileOf(base, CORE_FILE)}\n# authz ${unique("core")}\n`,
          baseVersionId: base.id,
          message: "authz",
        }),
      );
    },
  },
  {
    name: "saveOverlayAction",
    demand: { role: "editor" },
    data: ["constitution_embedding"],
    prepare: async () => {
      const base = await current();
      return action(() =>
        saveOverlayAction({
          domain: "medical",
          text: `${fileOf(base, "overlays/medical.yaml")}\n# authz ${unique("ov")}\n`,
          baseVersionId: base.id,
          message: "authz",
        }),
      );
    },
  },
  {
    name: "saveWeightsAction",
    demand: { role: "admin" },
    data: ["background_job", "turn_score"],
    prepare: async () =>
      action(() =>
        saveWeightsAction({
          weights: { ethical: 1 + Math.round(Math.random() * 50) },
          message: "authz",
        }),
      ),
  },
  {
    name: "suggestEvalFixAction",
    demand: { role: "editor" },
    prepare: async () => {
      const base = await current();
      const [first] = base.evals.cases;
      return action(() =>
        suggestEvalFixAction({ versionId: base.id, file: first!.file, line: first!.line }),
      );
    },
  },

  // Route handlers (app/api): people by role with a same-origin JSON request, keys by scope.
  {
    name: "POST /api/v1/events",
    demand: { role: "editor", scope: "ingest" },
    data: AGENT_DATA,
    prepare: async () =>
      http(events, "POST", "/api/v1/events", {
        type: "UserPromptSubmit",
        id: unique("evt"),
        session_id: unique("authz-session"),
        prompt: "is this allowed?",
      }),
  },
  {
    name: "POST /api/public/otel/v1/traces",
    demand: { role: "editor", scope: "ingest" },
    data: AGENT_DATA,
    prepare: async () =>
      http(
        otelTraces,
        "POST",
        "/api/public/otel/v1/traces",
        exportOf({
          traceId: randomBytes(16).toString("hex"),
          startedAt: new Date(Date.now() - 60_000).toISOString(),
          resource: { "service.name": "authz-agent" },
          scope: "authz",
          spans: [
            {
              spanId: randomBytes(8).toString("hex"),
              name: "chat gpt-4o",
              start: 0,
              end: 100,
              attributes: {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": JSON.stringify([
                  { role: "user", parts: [{ type: "text", content: "is this allowed?" }] },
                ]),
              },
            },
          ],
        }),
      ),
  },
  {
    name: "GET /api/v1/turns",
    demand: { role: "viewer", scope: "read" },
    prepare: async () => http(turns, "GET", "/api/v1/turns?limit=5"),
  },
  {
    name: "GET /api/v1/recompute",
    demand: { role: "viewer", scope: "read" },
    prepare: async () => http(recompute, "GET", "/api/v1/recompute"),
  },
  {
    name: "GET /api/v1/openapi.json",
    demand: { role: "viewer", scope: "read" },
    prepare: async () => http(openapi, "GET", "/api/v1/openapi.json"),
  },
  {
    name: "GET /api/health",
    demand: "public",
    prepare: async () => http(health, "GET", "/api/health"),
  },
  {
    name: "GET /api/health?auth=1",
    demand: "any-credential",
    prepare: async () => http(health, "GET", "/api/health?auth=1"),
  },
];

/** Routes that are not Charter's own handlers: Better Auth's, with their own matrix. */
const ELSEWHERE = { "app/api/auth/[...all]/route.ts": "lib/auth/endpoints.db.test.ts" };

/** Each dashboard page's guard, as this test expects it. */
const PAGES: Record<string, Rank> = {
  "app/(dashboard)/page.tsx": "viewer",
  "app/(dashboard)/api-docs/page.tsx": "viewer",
  "app/(dashboard)/api-keys/page.tsx": "admin",
  "app/(dashboard)/audit/page.tsx": "approver",
  "app/(dashboard)/constitution/page.tsx": "viewer",
  "app/(dashboard)/constitution/core/page.tsx": "viewer",
  "app/(dashboard)/constitution/evals/page.tsx": "viewer",
  "app/(dashboard)/constitution/history/page.tsx": "viewer",
  "app/(dashboard)/constitution/overlays/[domain]/page.tsx": "viewer",
  "app/(dashboard)/docs/[slug]/page.tsx": "viewer",
  "app/(dashboard)/docs/page.tsx": "viewer",
  "app/(dashboard)/playbook/page.tsx": "viewer",
  "app/(dashboard)/playbook/prune/page.tsx": "viewer",
  "app/(dashboard)/principles/page.tsx": "viewer",
  "app/(dashboard)/principles/[id]/page.tsx": "viewer",
  "app/(dashboard)/retrieval/page.tsx": "viewer",
  "app/(dashboard)/sessions/page.tsx": "viewer",
  "app/(dashboard)/sessions/[id]/page.tsx": "viewer",
  "app/(dashboard)/turns/page.tsx": "viewer",
  "app/(dashboard)/turns/[id]/page.tsx": "viewer",
  "app/(dashboard)/users/page.tsx": "admin",
  "app/(dashboard)/weights/page.tsx": "admin",
};

function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && name.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "authorization-test-secret-0123456789abcdef";
  resetEnv();
  await setupTestDatabase().then((r) => (teardownDb = r.teardown));
  await ensureConstitution();
  await importTranscripts(await transcriptFiles(DEMO_DIR));
  const scored = await db().turnScore.findFirstOrThrow({
    select: { turnId: true, turn: { select: { sessionId: true } } },
  });
  turnId = scored.turnId;
  sessionId = scored.turn.sessionId;
  adminUserId = (
    await users.create(
      { email: `${unique("authz-key-owner")}@example.test`, name: "Owner", role: "admin" },
      SYSTEM_ACTOR,
    )
  ).id;
  await makeCallers();
  const rows = await db().$queryRaw<
    { table_name: string }[]
  >`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`;
  tables = rows.map((r) => r.table_name);
  // The low 32 bits, as xmin holds them (no wraparound within one test run).
  const [xid] = await db().$queryRaw<
    { xid: bigint }[]
  >`SELECT (txid_current() % 4294967296)::bigint AS xid`;
  firstXid = BigInt(xid!.xid);
  reflector = await startScriptedLlmServer(() => ({
    content: JSON.stringify({ new_key_points: [`reflected ${unique("r")}`], evaluations: [] }),
  }));
}, 300_000);
let teardownDb: () => Promise<void> = async () => undefined;
afterAll(async () => {
  await reflector?.close();
  await teardownDb();
});

describe("the matrix covers everything there is", () => {
  it("every server action in lib/actions has a row", async () => {
    const exported: string[] = [];
    for (const file of filesUnder("lib/actions", /^[a-z-]+\.ts$/)) {
      if (/\/(client|result)\.ts$/.test(file)) continue;
      const mod = (await import(path.join(ROOT, file))) as Record<string, unknown>;
      exported.push(...Object.keys(mod).filter((k) => k.endsWith("Action")));
    }
    expect(exported.sort()).toEqual(
      targets
        .filter((t) => t.name.endsWith("Action"))
        .map((t) => t.name)
        .sort(),
    );
  });

  it("every route handler in app/api has a row, or a matrix of its own", async () => {
    const served: string[] = [];
    for (const file of filesUnder("app/api", /^route\.ts$/)) {
      if (file in ELSEWHERE) continue;
      const mod = (await import(path.join(ROOT, file))) as Record<string, unknown>;
      const route = `/${path.dirname(file).slice("app/".length)}`;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
        if (typeof mod[method] === "function") served.push(`${method} ${route}`);
    }
    const rows = new Set(
      targets.filter((t) => !t.name.endsWith("Action")).map((t) => t.name.split("?")[0]!),
    );
    expect(served.sort()).toEqual([...rows].sort());
  });

  it("every dashboard page guards itself with the expected role (a layout's guard does not cover a page's own data)", () => {
    const pages = filesUnder("app/(dashboard)", /^page\.tsx$/).sort();
    expect(pages).toEqual(Object.keys(PAGES).sort());
    for (const page of pages) {
      const guards = [
        ...readFileSync(path.join(ROOT, page), "utf8").matchAll(/requirePage\("(\w+)"\)/g),
      ].map((m) => m[1]);
      expect({ page, guards }).toEqual({ page, guards: [PAGES[page]] });
    }
  });
});

describe("every action and route, by every caller", () => {
  // The demo's first load adds its playbook lessons (audited as the caller); loaded once
  // beforehand, every load in the matrix is the same on any database (the shared
  // PostgreSQL one, or a fresh PGlite copy) and adds agent data only.
  beforeAll(() => loadDemo({ id: null, label: "authorization-setup" }), 300_000);

  it("refuses whom it must and changes nothing for them; lets in whom it must, and audits every change as that caller", async () => {
    const problems: string[] = [];
    let calls = 0;
    let audited = 0;
    for (const target of targets) {
      for (const caller of callers) {
        const call = await target.prepare();
        const before = await fingerprint();
        const auditFrom = await lastAuditId();
        requestHeaders = new Headers(caller.headers);
        const outcome = await call();
        requestHeaders = new Headers();
        calls += 1;
        const want = expected(caller, target.demand);
        const after = want === "ok" ? await settled() : await fingerprint();
        const changed = changedTables(before, after);
        const where = `${target.name} by ${caller.name}`;
        if (outcome.status !== want)
          problems.push(`${where}: expected ${want}, got ${outcome.detail}`);
        if (want !== "ok") {
          if (changed.length) problems.push(`${where}: refused, yet changed ${changed.join(", ")}`);
          continue;
        }
        const unaudited = changed.filter(
          (t) => t !== "audit_log" && !(target.data ?? []).includes(t),
        );
        if (!unaudited.length) continue;
        const rows = await newAuditRows(auditFrom);
        const mine = rows.filter((r) => r.actorId === caller.userId);
        const others = rows.filter((r) => r.actorId !== caller.userId);
        if (!mine.length)
          problems.push(
            `${where}: changed ${unaudited.join(", ")} with no audit row naming the caller`,
          );
        if (others.length)
          problems.push(
            `${where}: audit rows name someone else: ${others.map((r) => `${r.action} by ${r.actorLabel}`).join(", ")}`,
          );
        if (mine.length) audited += 1;
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBe(targets.length * callers.length);
    // Calls let in that changed more than agent data, each audited as its caller: ten editor actions
    // (add, apply, edit, import, override, reflect, save core, save overlay, accept and remove a
    // label) x editor, approver, admin; four approver actions (approve, reject, undo, roll back) x
    // approver, admin; seven admin actions.
    expect(audited).toBe(10 * 3 + 4 * 2 + 7);
  }, 600_000);
});

describe("every dashboard page's guard, by every caller", () => {
  it.each(RANKS)(
    "a page that needs %s sends anonymous and key callers to sign-in, refuses lower ranks, admits the rest",
    async (needed) => {
      const outcomes: string[] = [];
      for (const caller of callers) {
        requestHeaders = new Headers(caller.headers);
        const got = await requirePage(needed).then(
          (user) => `admitted ${user.role}`,
          (error: unknown) =>
            error instanceof Redirected
              ? `redirected to ${error.message}`
              : error instanceof Forbidden
                ? "forbidden"
                : `threw ${String(error)}`,
        );
        requestHeaders = new Headers();
        const want = !caller.role
          ? "redirected to /sign-in"
          : RANKS.indexOf(caller.role) >= RANKS.indexOf(needed)
            ? `admitted ${caller.role}`
            : "forbidden";
        if (got !== want) outcomes.push(`${caller.name}: expected ${want}, got ${got}`);
      }
      expect(outcomes).toEqual([]);
    },
  );
});
