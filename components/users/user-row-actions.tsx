"use client";
import { Button, ErrorText, Options, Select } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { issueSignInLinkAction } from "@/lib/actions/issue-sign-in-link";
import { setUserBlockedAction } from "@/lib/actions/set-user-blocked";
import { setUserRoleAction } from "@/lib/actions/set-user-role";
import { ROLES, type Role } from "@/lib/auth/roles";
import { SignInLink } from "./sign-in-link";

export function UserRowActions({
  userId,
  email,
  role,
  banned,
  isSelf,
}: {
  userId: string;
  email: string;
  role: Role;
  banned: boolean;
  isSelf: boolean;
}) {
  const setRole = useAction(setUserRoleAction);
  const setBlocked = useAction(setUserBlockedAction);
  const link = useAction(issueSignInLinkAction);
  const failure = setRole.error ?? setBlocked.error ?? link.error;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Select
          aria-label={`Role of ${email}`}
          value={role}
          disabled={setRole.isPending}
          onChange={(e) => setRole.mutate({ userId, role: e.target.value as Role })}
        >
          <Options values={ROLES} />
        </Select>
        <Button
          variant="secondary"
          onClick={() => link.mutate({ userId })}
          disabled={link.isPending || banned}
        >
          Sign-in link
        </Button>
        {isSelf ? null : (
          <Button
            variant={banned ? "secondary" : "danger"}
            onClick={() => setBlocked.mutate({ userId, blocked: !banned })}
            disabled={setBlocked.isPending}
          >
            {banned ? "Unblock" : "Block"}
          </Button>
        )}
      </div>
      {failure ? <ErrorText>{failure.message}</ErrorText> : null}
      {link.data ? <SignInLink email={link.data.email} link={link.data.link} /> : null}
    </div>
  );
}
