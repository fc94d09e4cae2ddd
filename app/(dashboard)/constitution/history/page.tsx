import type { Metadata } from "next";
import { ConstitutionLinks } from "@/components/constitution/section-links";
import { CompareForm } from "@/components/constitution/compare-form";
import { FileDiffs } from "@/components/constitution/file-diffs";
import { NoConstitution } from "@/components/constitution/no-constitution";
import { VersionTable } from "@/components/constitution/version-table";
import { Card, PageHeader } from "@/components/ui/primitives";
import { requirePage } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { boundedDiffs } from "@/lib/constitution/diff-limits";
import { constitutionVersions } from "@/lib/db/constitution";

export const metadata: Metadata = { title: "Constitution history" };

type SearchParams = { searchParams: Promise<{ a?: string | string[]; b?: string | string[] }> };

const versionParam = (value: string | string[] | undefined): number | null => {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export default async function HistoryPage({ searchParams }: SearchParams) {
  const me = await requirePage("viewer");
  const versions = await constitutionVersions.list({ limit: 500 });
  const current = versions.find((v) => v.current);
  const header = (
    <PageHeader
      title="Constitution history"
      description="Every saved version, newest first. Versions are never changed: a rollback saves an earlier version's content as a new version."
      actions={<ConstitutionLinks current="/constitution/history" />}
    />
  );
  if (!current) {
    return (
      <>
        {header}
        <NoConstitution />
      </>
    );
  }
  const ids = versions.map((v) => v.id);
  const query = await searchParams;
  const b = versionParam(query.b) ?? current.id;
  const previous = current.parentId ?? versions.find((v) => v.id < current.id)?.id ?? current.id;
  const a = versionParam(query.a) ?? previous;
  const missing = [a, b].filter((id) => !ids.includes(id));
  const [from, to] = missing.length
    ? [null, null]
    : await Promise.all([constitutionVersions.get(a), constitutionVersions.get(b)]);

  return (
    <>
      {header}
      <div className="space-y-6">
        <Card title={`${versions.length} ${versions.length === 1 ? "version" : "versions"}`}>
          <VersionTable
            versions={versions}
            currentId={current.id}
            canRollback={roleAtLeast(me.role, "approver")}
          />
        </Card>
        <Card title={`Changes from version ${a} to version ${b}`}>
          <div className="space-y-4">
            <CompareForm key={`${a}-${b}`} versionIds={ids} a={a} b={b} />
            {from && to ? (
              <FileDiffs diffs={boundedDiffs(from.files, to.files)} from={a} to={b} />
            ) : (
              <p className="text-sm text-red-700">There is no version {missing.join(" or ")}.</p>
            )}
          </div>
        </Card>
      </div>
    </>
  );
}
