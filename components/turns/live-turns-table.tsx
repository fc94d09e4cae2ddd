"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorText, Table } from "@/components/ui/primitives";
import { mergeRows, type TurnPage, type TurnRow as Row } from "./rows";
import { TURN_TABLE_HEAD, TurnRow } from "./turn-row";

/** How often the first page is fetched again, so new turns show up without a reload. */
export const REFRESH_MS = 5_000;

async function fetchPage(query: string, cursor?: string): Promise<TurnPage> {
  const params = new URLSearchParams(query);
  if (cursor) params.set("cursor", cursor);
  const res = await fetch(`/api/v1/turns?${params}`, {
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  }
  return (await res.json()) as TurnPage;
}

/**
 * The Turns table. The server renders the first page; this refetches it every
 * REFRESH_MS with the same filters and merges new rows on top, and "Load more"
 * follows the keyset cursor of the oldest page loaded. Remount (key) on new filters.
 */
export function LiveTurnsTable({ query, initial }: { query: string; initial: TurnPage }) {
  const [known, setKnown] = useState<Row[]>(initial.rows);
  const [next, setNext] = useState<string | null>(initial.next);
  const first = useQuery({
    queryKey: ["turns", query],
    queryFn: () => fetchPage(query),
    initialData: initial,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const more = useMutation({
    mutationFn: (cursor: string) => fetchPage(query, cursor),
    onSuccess: (page) => {
      setKnown((rows) => mergeRows(page.rows, rows));
      setNext(page.next);
    },
  });
  const rows = mergeRows(first.data.rows, known);

  return (
    <div className="space-y-3">
      <p className="flex items-center gap-2 text-xs text-slate-500" aria-live="polite">
        <span
          className={`inline-block h-2 w-2 rounded-full ${first.isError ? "bg-red-500" : "bg-emerald-500"}`}
          aria-hidden="true"
        />
        {first.isError
          ? `Live updates paused: ${first.error.message}`
          : `${rows.length} ${rows.length === 1 ? "turn" : "turns"} shown; new turns appear every ${REFRESH_MS / 1000} s.`}
      </p>
      <Table
        head={TURN_TABLE_HEAD}
        empty={
          rows.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-slate-500">
              No scored turns match these filters yet.
            </p>
          ) : null
        }
      >
        {rows.map((row) => (
          <TurnRow key={row.id} row={row} />
        ))}
      </Table>
      {more.isError ? <ErrorText>{more.error.message}</ErrorText> : null}
      {next ? (
        <Button variant="secondary" disabled={more.isPending} onClick={() => more.mutate(next)}>
          {more.isPending ? "Loading…" : "Load more"}
        </Button>
      ) : rows.length > 0 ? (
        <p className="text-xs text-slate-400">That is every matching turn.</p>
      ) : null}
    </div>
  );
}
