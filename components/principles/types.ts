import type { getPrinciple } from "@/lib/db/sessions";

/** What the principle page shows, as the read model returns it. */
export type PrincipleDetail = Awaited<ReturnType<typeof getPrinciple>>;
export type PrincipleText = NonNullable<PrincipleDetail["principle"]>;
export type PrincipleUsage = PrincipleDetail["usage"][number];
export type InjectedTurn = PrincipleDetail["turns"][number];
export type DailyTrust = PrincipleDetail["daily"][number];
