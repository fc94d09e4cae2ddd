import {
  outcomeParts,
  trust,
  type OutcomeSignals,
  type PrincipleCredit,
  type UserFeedback,
} from "@/lib/credit";
import { allPrinciples } from "@/lib/constitution/overlay";
import { NotFoundError } from "@/lib/errors";
import { isStorableText } from "@/lib/schemas/text";
import { db } from "./client";
import { constitutionVersions } from "./constitution";
import { principleDaily, principleTrust } from "./credit";

/** Characters of a session's first prompt read for the Sessions table. */
const FIRST_PROMPT_READ = 400;

/** Sessions, newest activity first, with where they came from, their first prompt (its start) and their outcome when credited. */
export async function listSessions(options: { limit?: number; before?: Date } = {}) {
  const rows = await db().agentSession.findMany({
    where: options.before ? { lastEventAt: { lt: options.before } } : {},
    orderBy: { lastEventAt: "desc" },
    take: Math.min(options.limit ?? 50, 200),
    include: { _count: { select: { turns: true, toolCalls: true } } },
  });
  const ids = rows.map((r) => r.id);
  const [outcomes, prompts] = await Promise.all([
    db().sessionOutcome.findMany({
      where: { sessionId: { in: ids } },
      select: { sessionId: true, status: true, score: true },
    }),
    db().$queryRawUnsafe<{ session_id: string; prompt: string }[]>(
      `SELECT DISTINCT ON (session_id) session_id, left(prompt, $2::int) AS prompt FROM turn WHERE session_id = ANY($1::text[]) AND prompt <> '' ORDER BY session_id, number`,
      ids,
      FIRST_PROMPT_READ,
    ),
  ]);
  const outcomeOf = new Map(
    outcomes.map((o) => [o.sessionId, { status: o.status, score: o.score }]),
  );
  const promptOf = new Map(prompts.map((p) => [p.session_id, p.prompt]));
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    cwd: r.cwd,
    transcriptPath: r.transcriptPath,
    firstPrompt: promptOf.get(r.id) ?? null,
    startedAt: r.startedAt,
    lastEventAt: r.lastEventAt,
    endedAt: r.endedAt,
    turns: r._count.turns,
    toolCalls: r._count.toolCalls,
    outcome: outcomeOf.get(r.id) ?? null,
  }));
}

/** How many of these session ids are stored. */
export async function countSessions(ids: string[]): Promise<number> {
  return ids.length === 0 ? 0 : db().agentSession.count({ where: { id: { in: ids } } });
}

/** One session: prompts with their feedback, tool calls with the principles active, the outcome and how it was formed, the credits. */
export async function getSession(id: string) {
  // An id from a URL may hold what no stored id can (a NUL); PostgreSQL would refuse to compare it.
  if (!isStorableText(id)) throw new NotFoundError(`No session ${id}.`);
  const session = await db().agentSession.findUnique({ where: { id } });
  if (!session) throw new NotFoundError(`No session ${id}.`);
  const [turns, toolCalls, outcome] = await Promise.all([
    db().turn.findMany({
      where: { sessionId: id },
      orderBy: { number: "asc" },
      include: {
        score: { select: { normalizedTotal: true, weightedTotal: true, maxTotal: true } },
      },
    }),
    db().toolCall.findMany({ where: { sessionId: id }, orderBy: { at: "asc" } }),
    db().sessionOutcome.findUnique({ where: { sessionId: id } }),
  ]);
  const signals = outcome?.signals as OutcomeSignals | undefined;
  return {
    session,
    turns: turns.map((t) => ({
      id: t.id,
      number: t.number,
      prompt: t.prompt,
      response: t.response,
      startedAt: t.startedAt,
      injectedPrinciples: t.injectedPrinciples,
      injectedKeyPoints: t.injectedKeyPoints,
      retrievedPrinciples: t.retrievedPrinciples,
      contextDelivery: t.contextDelivery,
      feedback: (t.feedback as UserFeedback | null) ?? null,
      score: t.score,
    })),
    toolCalls: toolCalls.map((c) => ({
      id: c.id,
      turnNumber: c.turnNumber,
      name: c.name,
      input: c.input,
      succeeded: c.succeeded,
      activePrinciples: c.activePrinciples,
      at: c.at,
      output: c.output,
    })),
    outcome:
      outcome && signals
        ? {
            status: outcome.status,
            score: outcome.score,
            signals,
            parts: outcomeParts(signals),
            credits: outcome.credits as PrincipleCredit[],
            computedAt: outcome.computedAt,
          }
        : null,
  };
}

/** Every principle of the current constitution (and any credited principle no longer in it) with its trust and a 30-day daily series. */
export async function principlesWithTrust() {
  const [version, trustById, daily] = await Promise.all([
    constitutionVersions.current(),
    principleTrust(),
    principleDaily(undefined, 30),
  ]);
  const principles = version ? allPrinciples(version.constitution) : [];
  const known = new Set(principles.map((p) => p.id));
  const series = new Map<string, { day: string; smoothed: number; uses: number }[]>();
  for (const d of daily)
    series.set(d.principleId, [
      ...(series.get(d.principleId) ?? []),
      { day: d.day, smoothed: d.smoothed, uses: d.uses },
    ]);
  const empty = {
    useCount: 0,
    successCount: 0,
    raw: null,
    smoothed: trust(0, 0).smoothed,
    lowerBound: 0,
  };
  return [
    ...principles.map((p) => ({
      id: p.id,
      title: p.title,
      level: p.level,
      priority: p.priority,
      domain: p.domain,
      inConstitution: true,
      ...(trustById.get(p.id) ?? empty),
      trend: series.get(p.id) ?? [],
    })),
    ...[...trustById.values()]
      .filter((t) => !known.has(t.principleId))
      .map((t) => ({
        id: t.principleId,
        title: "(no longer in the constitution)",
        level: null,
        priority: null,
        domain: null,
        inConstitution: false,
        ...t,
        trend: series.get(t.principleId) ?? [],
      })),
  ];
}

/** One principle: its text from the version in force (or the newest version that had it), trust, trust over time, usage events, and where it was injected. */
export async function getPrinciple(id: string) {
  if (!isStorableText(id)) throw new NotFoundError(`No principle ${id}.`);
  const version = await constitutionVersions.current();
  let text = version ? allPrinciples(version.constitution).find((p) => p.id === id) : undefined;
  let textVersion = version?.id ?? null;
  if (!text) {
    for (const meta of await constitutionVersions.list({ limit: 50 })) {
      const found = allPrinciples((await constitutionVersions.get(meta.id)).constitution).find(
        (p) => p.id === id,
      );
      if (found) {
        text = found;
        textVersion = meta.id;
        break;
      }
    }
  }
  const [stat, daily, usage, turns] = await Promise.all([
    db().principleStat.findUnique({ where: { principleId: id } }),
    principleDaily(id, 90),
    db().principleUsage.findMany({
      where: { principleId: id },
      orderBy: { createdAt: "desc" },
      take: 100,
    }),
    db().turn.findMany({
      where: { injectedPrinciples: { has: id } },
      orderBy: { startedAt: "desc" },
      take: 50,
      select: { id: true, sessionId: true, number: true, prompt: true, startedAt: true },
    }),
  ]);
  if (!text && !stat) throw new NotFoundError(`No principle ${id}.`);
  const t = trust(stat?.successCount ?? 0, stat?.useCount ?? 0);
  return {
    id,
    principle: text ?? null,
    textVersion,
    inCurrentVersion: textVersion !== null && textVersion === version?.id,
    trust: {
      useCount: stat?.useCount ?? 0,
      successCount: stat?.successCount ?? 0,
      raw: t.raw,
      smoothed: t.smoothed,
      lowerBound: t.lower_bound,
    },
    daily,
    usage: usage.map((u) => ({
      id: u.id,
      sessionId: u.traceId,
      credit: u.credit,
      wasSuccessful: u.wasSuccessful,
      reasoning: u.reasoning,
      constitutionVersionId: u.constitutionVersionId,
      createdAt: u.createdAt,
    })),
    turns,
  };
}
