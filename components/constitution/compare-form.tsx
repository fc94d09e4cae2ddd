import { Button, Field, Select } from "@/components/ui/primitives";

/** Picks the two versions to compare; a plain GET form, so the comparison is a link (`?a=3&b=5`). */
export function CompareForm({ versionIds, a, b }: { versionIds: number[]; a: number; b: number }) {
  const options = versionIds.map((id) => (
    <option key={id} value={id}>
      Version {id}
    </option>
  ));
  return (
    <form
      method="get"
      action="/constitution/history"
      aria-label="Compare versions"
      className="flex flex-wrap items-end gap-3"
    >
      <Field label="From version">
        <Select name="a" defaultValue={String(a)} className="block">
          {options}
        </Select>
      </Field>
      <Field label="To version">
        <Select name="b" defaultValue={String(b)} className="block">
          {options}
        </Select>
      </Field>
      <Button type="submit" variant="secondary">
        Compare
      </Button>
    </form>
  );
}
