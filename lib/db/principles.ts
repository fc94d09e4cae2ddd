import { trust } from "@/lib/credit";
import { allPrinciples } from "@/lib/constitution/overlay";
import { NotFoundError } from "@/lib/errors";
import type { PrincipleDetail, PrincipleListRow } from "@/lib/schemas/principle-rows";
import type { PrincipleTrustRow } from "@/lib/schemas/principle-rows";
import { isStorableText } from "@/lib/schemas/text";
import { db } from "./client";
import { constitutionVersions } from "./constitution";
import { credits } from "./credit";

/** One agent's trust rows (UNKNOWN_AGENT: sessions that named none), by principle. */
async function agentTrust(agent: string): Promise<Map<string, PrincipleTrustRow>> {
  const rows = await credits.trustByAgent({ agent });
  return new Map(rows.map(({ agent: _agent, ...row }) => [row.principleId, row]));
}

/**
 * Every principle of the current constitution (and any credited principle no longer in
 * it) with its trust and a 30-day daily series; with `agent`, from that agent's sessions only.
 */
async function withTrust(agent?: string): Promise<PrincipleListRow[]> {
  const [version, trustById, daily] = await Promise.all([
    constitutionVersions.current(),
    agent === undefined ? credits.trust() : agentTrust(agent),
    credits.daily(undefined, 30, agent),
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
async function get(id: string): Promise<PrincipleDetail> {
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
  const [stat, byAgent, daily, usage, turns] = await Promise.all([
    db().principleStat.findUnique({ where: { principleId: id } }),
    credits.trustByAgent({ principleId: id }),
    credits.daily(id, 90),
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
    byAgent: byAgent.map(({ principleId: _id, ...row }) => row),
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

/** Constitution principles with their trust, usage and the turns they were injected into. */
export const principles = { withTrust, get } as const;
