"use client";
import { useState } from "react";
import { Button, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { inviteUserAction } from "@/lib/actions/invite-user";
import { ROLES, type Role } from "@/lib/auth/roles";
import { inviteUserSchema } from "@/lib/schemas/user";
import { SignInLink } from "./sign-in-link";

export function InviteUserForm() {
  const [form, setForm] = useState({ email: "", name: "", role: "viewer" as Role });
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const invite = useAction(inviteUserAction, {
    onSuccess: () => setForm({ email: "", name: "", role: "viewer" }),
  });
  const error = (field: string) => clientErrors[field] ?? fieldError(invite.error, field);

  return (
    <form
      aria-label="Invite someone"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        // The same schema the server action uses, so the form and the server agree.
        const parsed = inviteUserSchema.safeParse(form);
        if (!parsed.success) {
          setClientErrors(
            Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])),
          );
          return;
        }
        setClientErrors({});
        invite.mutate(form);
      }}
    >
      <Field label="E-mail" error={error("email")}>
        <Input
          name="email"
          type="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
        />
      </Field>
      <Field label="Name" error={error("name")}>
        <Input
          name="name"
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
      </Field>
      <Field label="Role" error={error("role")}>
        <Select
          name="role"
          value={form.role}
          onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
        >
          <Options values={ROLES} />
        </Select>
      </Field>
      <Button type="submit" disabled={invite.isPending}>
        {invite.isPending ? "Inviting…" : "Invite"}
      </Button>
      {invite.isError && !invite.error.error.details ? (
        <ErrorText>{invite.error.message}</ErrorText>
      ) : null}
      {invite.data ? <SignInLink email={invite.data.email} link={invite.data.link} /> : null}
    </form>
  );
}
