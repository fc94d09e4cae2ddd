import type { Metadata } from "next";
import { InviteUserForm } from "@/components/users/invite-user-form";
import { UserRowActions } from "@/components/users/user-row-actions";
import { Badge, Card, PageHeader, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { requirePage } from "@/lib/auth/page";
import { ROLE_DESCRIPTIONS, ROLES } from "@/lib/auth/roles";
import { users } from "@/lib/db/users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await requirePage("admin");
  const rows = await users.list();
  return (
    <>
      <PageHeader
        title="Users"
        description="People who can sign in, and what their role lets them do. Role changes apply from the person's next request."
      />
      <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
        <Card title={`${rows.length} ${rows.length === 1 ? "user" : "users"}`}>
          <Table head={["E-mail", "Name", "Role", "Last active", ""]}>
            {rows.map((row) => (
              <tr key={row.id} data-testid={`user-${row.email}`}>
                <Td>
                  {row.email} {row.banned ? <Badge tone="red">blocked</Badge> : null}
                </Td>
                <Td>{row.name}</Td>
                <Td>
                  <Badge tone={row.role === "admin" ? "indigo" : "slate"}>{row.role}</Badge>
                </Td>
                <Td>
                  <Time value={row.lastSeenAt} />
                </Td>
                <Td>
                  <UserRowActions
                    userId={row.id}
                    email={row.email}
                    role={row.role}
                    banned={row.banned}
                    isSelf={row.id === me.userId}
                  />
                </Td>
              </tr>
            ))}
          </Table>
          <p className="mt-3 text-xs text-slate-500">
            Last active: the latest of the person&apos;s last sign-in or session refresh (sessions
            refresh at most once a day) and the last change they made or sign-out (from the audit
            log). Reading pages is not recorded, so someone who only reads may have been active
            since.
          </p>
        </Card>
        <div className="space-y-6">
          <Card title="Invite someone">
            <InviteUserForm />
          </Card>
          <Card title="Roles">
            <dl className="space-y-2 text-sm">
              {ROLES.map((role) => (
                <div key={role}>
                  <dt className="font-medium text-slate-800">{role}</dt>
                  <dd className="text-slate-600">{ROLE_DESCRIPTIONS[role]}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>
      </div>
    </>
  );
}
