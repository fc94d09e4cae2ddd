"use client";
import Link from "next/link";
import { useMemo, useState } from "react";
import { Field, Input, Options, Select, Table, Td } from "@/components/ui/primitives";
import { LEVELS } from "@/lib/constitution/schema";
import { LevelBadge } from "./level-badge";

export type PrincipleRow = {
  id: string;
  level: string;
  priority: number;
  title: string;
  rule: string;
  keywords: string[];
  domain: string | null;
};

const CORE = "core";
/** A rule longer than this is shown cut to two lines, with a button to show it all. */
const LONG_RULE = 160;

/** A principle's rule: two lines, expandable when it is longer. */
function RuleText({ id, rule }: { id: string; rule: string }) {
  const [open, setOpen] = useState(false);
  if (rule.length <= LONG_RULE) return <span className="whitespace-pre-wrap">{rule}</span>;
  return (
    <span className="block">
      <span className={open ? "whitespace-pre-wrap" : "line-clamp-2"}>{rule}</span>
      <button
        type="button"
        className="text-xs font-medium text-indigo-700 hover:underline"
        aria-expanded={open}
        aria-label={`${open ? "Show less of" : "Show all of"} the rule of ${id}`}
        onClick={() => setOpen(!open)}
      >
        {open ? "Show less" : "Show all"}
      </button>
    </span>
  );
}

/**
 * Every principle, core and overlays, in the order given (the page passes precedence
 * order, as retrieval ranks them), filtered in the browser by level, domain and text.
 */
export function PrinciplesTable({
  principles,
  domains,
}: {
  principles: PrincipleRow[];
  domains: string[];
}) {
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
          <Input
            type="search"
            placeholder="Id, title, rule or keyword"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </Field>
      </div>
      <p className="text-xs text-slate-500" aria-live="polite">
        {shown.length} of {principles.length} principles, in precedence order: hard before soft,
        then higher priority, then the more specific, then id.
      </p>
      <Table
        head={["Id", "Level", "Priority", "Title", "Rule", "Domain"]}
        empty={
          shown.length === 0 ? (
            <p className="px-3 py-4 text-sm text-slate-500">No principle matches these filters.</p>
          ) : null
        }
      >
        {shown.map((p) => (
          <tr key={p.id} data-testid={`principle-${p.id}`}>
            <Td className="whitespace-nowrap font-mono text-xs">
              <Link
                href={`/principles/${encodeURIComponent(p.id)}`}
                className="text-indigo-600 hover:underline"
              >
                {p.id}
              </Link>
            </Td>
            <Td>
              <LevelBadge level={p.level} />
            </Td>
            <Td className="tabular-nums">{p.priority}</Td>
            <Td>{p.title}</Td>
            <Td className="max-w-md">
              <RuleText id={p.id} rule={p.rule} />
            </Td>
            <Td>{p.domain ?? <span className="text-slate-500">{CORE}</span>}</Td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
