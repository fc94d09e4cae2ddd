import Form from "next/form";
import Link from "next/link";
import { Button, Field, Input, Select } from "@/components/ui/primitives";
import { STATUS_FILTERS, type PlaybookQuery } from "./query";

/** Search and status filter: a GET form, so the URL (`?q=&status=`) holds them and can be shared. */
export function PlaybookFilters({ query }: { query: PlaybookQuery }) {
  return (
    <Form
      action="/playbook"
      aria-label="Filter key points"
      className="grid gap-3 md:grid-cols-[1fr_14rem_auto] md:items-end"
    >
      <Field label="Search key points">
        <Input name="q" type="search" defaultValue={query.q} placeholder="Words in the text" />
      </Field>
      <Field label="Status">
        <Select name="status" defaultValue={query.status} className="w-full">
          {STATUS_FILTERS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit">Search</Button>
        <Link href="/playbook" className="text-sm text-slate-600 hover:underline">
          Clear
        </Link>
      </div>
    </Form>
  );
}
