"use client";
import { useMemo, useState } from "react";
import { Field, Input, Options, Select, Table, Td } from "@/components/ui/primitives";
import { LEVELS } from "@/lib/constitution/schema";
import { LevelBadge } from "./level-badge";

export type PrincipleRow = { id: string; level: string; priority: number; title: string; rule: string; keywords: string[]; domain: string | null };

const CORE = "core";

/** Every principle, core and overlays, filtered in the browser by level, domain and text. */
export function PrinciplesTable({ principles, domains }: { principles: PrincipleRow[]; domains: string[] }) {
  const [level, setLevel] = useState("");
  const [domain, setDomain] = useState("");
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return principles.filter(
      (p) =>
        (!level || p.level === level) &&
        (!domain || (p.domain ?? CORE) === domain) &&
        (!q || [p.id, p.title, p.rule, ...p.keywords].some((t) => t.toLowerCase().includes(q))),
    );
  }, [principles, level, domain, query]);

  return (
    <div className="space-y-4">
      <div className="grid gap-3 md:grid-cols-[10rem_14rem_1fr]">
        <Field label="Level">
          <Select value={level} onChange={(e) => setLevel(e.target.value)} className="w-full">
            <option value="">All levels</option>
            <Options values={LEVELS} />
          </Select>
        </Field>
        <Field label="Domain">
          <Select value={domain} onChange={(e) => setDomain(e.target.value)} className="w-full">
            <option value="">All domains</option>
            <option value={CORE}>core</option>
            <Options values={domains} />
          </Select>
        </Field>
        <Field label="Search principles">
          <Input type="search" placeholder="Id, title, rule or keyword" value={query} onChange={(e) => setQuery(e.target.value)} />
        </Field>
      </div>
      <p className="text-xs text-slate-500" aria-live="polite">
        {shown.length} of {principles.length} principles
      </p>
      <Table head={["Id", "Level", "Priority", "Title", "Rule", "Domain"]} empty={shown.length === 0 ? <p className="px-3 py-4 text-sm text-slate-500">No principle matches these filters.</p> : null}>
        {shown.map((p) => (
          <tr key={p.id} data-testid={`principle-${p.id}`}>
            <Td className="whitespace-nowrap font-mono text-xs">{p.id}</Td>
            <Td>
              <LevelBadge level={p.level} />
            </Td>
            <Td className="tabular-nums">{p.priority}</Td>
            <Td>{p.title}</Td>
            <Td className="max-w-md">
              <span className="line-clamp-2" title={p.rule}>
                {p.rule}
              </span>
            </Td>
            <Td>{p.domain ?? <span className="text-slate-500">{CORE}</span>}</Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
