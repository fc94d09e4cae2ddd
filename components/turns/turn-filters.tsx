import Form from "next/form";
import Link from "next/link";
import { Button, Field, Input, Options, Select } from "@/components/ui/primitives";
import { PRINCIPLES } from "@/lib/reward";
import type { AgentCount } from "@/components/agents/agent-filter";
import { agentLabel, UNKNOWN_AGENT } from "@/lib/schemas/agents";
import type { TurnQuery } from "./filters";

const str = (value: string | number | undefined) => (value === undefined ? "" : String(value));

/**
 * The Turns filters: a GET form, so applying them sets the URL's search params
 * (shareable, back-button friendly); next/form navigates without a full reload.
 */
export function TurnFilters({ query, agents }: { query: TurnQuery; agents: AgentCount[] }) {
  return (
    <Form
      action="/turns"
      aria-label="Filter turns"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-8 xl:items-end"
    >
      <div className="sm:col-span-2">
        <Field label="Session">
          <Input name="session" defaultValue={str(query.session)} placeholder="session id" />
        </Field>
      </div>
      <Field label="Agent">
        <Select name="agent" defaultValue={str(query.agent)} className="w-full">
          <option value="">any</option>
          {agents.map(({ agent }) => (
            <option key={agent ?? UNKNOWN_AGENT} value={agent ?? UNKNOWN_AGENT}>
              {agent ? agentLabel(agent) : "unknown agent"}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="From">
        <Input name="from" type="date" defaultValue={str(query.from)} />
      </Field>
      <Field label="To">
        <Input name="to" type="date" defaultValue={str(query.to)} />
      </Field>
      <Field label="Normalized total at least">
        <Input
          name="min"
          type="number"
          min={0}
          max={1}
          step={0.01}
          defaultValue={str(query.min)}
          placeholder="0"
        />
      </Field>
      <Field label="Normalized total at most">
        <Input
          name="max"
          type="number"
          min={0}
          max={1}
          step={0.01}
          defaultValue={str(query.max)}
          placeholder="1"
        />
      </Field>
      <Field label="Principle">
        <Select name="principle" defaultValue={str(query.principle)} className="w-full">
          <option value="">any</option>
          <Options values={PRINCIPLES} />
        </Select>
      </Field>
      <Field label="Scored below">
        <Input
          name="below"
          type="number"
          min={0}
          max={1}
          step={0.01}
          defaultValue={str(query.below)}
          placeholder="1"
        />
      </Field>
      <div className="flex items-center gap-3 sm:col-span-2 lg:col-span-4 xl:col-span-8">
        <Button type="submit">Apply filters</Button>
        <Link href="/turns" className="text-sm text-slate-600 hover:underline">
          Clear
        </Link>
        <span className="text-xs text-slate-500">
          Totals are normalized (0 to 1), as in the table&apos;s first number; the weighted total
          beside it is for reference. &quot;Principle … scored below&quot; needs both fields. Dates
          are UTC days, both inclusive.
        </span>
      </div>
    </Form>
  );
}
