"use client";
import { Button, ErrorText, Field, Input, Options, Select } from "@/components/ui/primitives";
import { useActionForm } from "@/components/ui/use-action-form";
import { inviteUserAction } from "@/lib/actions/invite-user";
import { ROLES } from "@/lib/auth/roles";
import { inviteUserSchema } from "@/lib/schemas/user";
import { SignInLink } from "./sign-in-link";

const EMPTY = { email: "", name: "", role: "viewer" } as const;

export function InviteUserForm() {
  const { form, mutation, submit, error, formFailure } = useActionForm(
    inviteUserSchema,
    inviteUserAction,
    { defaultValues: EMPTY, onSuccess: (_, f) => f.reset(EMPTY) },
  );

  return (
    <form aria-label="Invite someone" noValidate className="space-y-3" onSubmit={submit}>
      <Field label="E-mail" error={error("email")}>
        <Input type="email" {...form.register("email")} />
      </Field>
      <Field label="Name" error={error("name")}>
        <Input {...form.register("name")} />
      </Field>
      <Field label="Role" error={error("role")}>
        <Select defaultValue={EMPTY.role} {...form.register("role")}>
          <Options values={ROLES} />
        </Select>
      </Field>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Inviting…" : "Invite"}
      </Button>
      {formFailure ? <ErrorText>{formFailure.message}</ErrorText> : null}
      {mutation.data ? <SignInLink email={mutation.data.email} link={mutation.data.link} /> : null}
    </form>
  );
}
