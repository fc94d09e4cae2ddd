import { Field, Input, Options, Select } from "@/components/ui/primitives";
import { CORE, type TrustFilter } from "./rows";

/** Domain, level and text filters of the Principles table. */
export function TrustFilters({
  filter,
  domains,
  levels,
  onChange,
}: {
  filter: TrustFilter;
  domains: string[];
  levels: string[];
  onChange: (filter: TrustFilter) => void;
}) {
  return (
    <div className="grid gap-3 md:grid-cols-[14rem_10rem_1fr]">
      <Field label="Domain">
        <Select
          value={filter.domain}
          onChange={(e) => onChange({ ...filter, domain: e.target.value })}
          className="w-full"
        >
          <option value="">All domains</option>
          <option value={CORE}>{CORE}</option>
          <Options values={domains} />
        </Select>
      </Field>
      <Field label="Level">
        <Select
          value={filter.level}
          onChange={(e) => onChange({ ...filter, level: e.target.value })}
          className="w-full"
        >
          <option value="">All levels</option>
          <Options values={levels} />
        </Select>
      </Field>
      <Field label="Search principles">
        <Input
          type="search"
          placeholder="Id or title"
          value={filter.text}
          onChange={(e) => onChange({ ...filter, text: e.target.value })}
        />
      </Field>
    </div>
  );
}
