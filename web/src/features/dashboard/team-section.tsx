import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { isValidEmail, rolePermissions, type Account, type TeamMemberView, type TeamRole, type TeamView } from "../../lib/domain";
import { useInvite, useLeaveTeam, useRemoveMember, useTeam } from "./api/team";

const roleNames: Record<TeamRole, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** "Seats in use: 2 of 3": the owner's seat, members and pending invitations (docs/PRODUCT.md §6.7). */
function seatsLine(team: TeamView) {
  const used = team.members.length + 1;
  return team.seats === null ? `Seats in use: ${used} (unlimited)` : `Seats in use: ${used} of ${team.seats}`;
}

/** The invitation form: an address and a role; the server checks the seats and answers. */
function InviteForm() {
  const invite = useInvite();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TeamRole>("member");
  const [submitted, setSubmitted] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const problem = submitted && !isValidEmail(email.trim()) ? "Please enter a valid email address" : undefined;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    setDone(null);
    if (!isValidEmail(email.trim())) return;
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (r) => {
          setDone(`${r.message} to ${email.trim()}`);
          setEmail("");
          setSubmitted(false);
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Invite a team member">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="invite-email">Invite by email</Label>
          <Input
            id="invite-email"
            type="email"
            autoComplete="off"
            value={email}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "invite-email-error" : undefined}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="invite-role">Role</Label>
          <select
            id="invite-role"
            className="h-10 rounded-lg border border-border bg-input px-3 text-input-foreground"
            value={role}
            onChange={(e) => setRole(e.target.value as TeamRole)}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending && <Spinner className="size-4" />}
          Send Invitation
        </Button>
      </div>
      <FieldError id="invite-email-error">{problem}</FieldError>
      {invite.isError && <Alert variant="destructive">{invite.error.message}</Alert>}
      {done && <Alert variant="success">{done}</Alert>}
    </form>
  );
}

function MemberRow({ member, canRemove }: { member: TeamMemberView; canRemove: boolean }) {
  const remove = useRemoveMember();
  const pending = member.status === "pending";
  const action = pending ? "Withdraw invitation for" : "Remove";
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <span className="flex flex-wrap items-center gap-2">
        <span className="break-all">{member.email}</span>
        <Badge variant="outline">{roleNames[member.role]}</Badge>
        {pending && <Badge variant="yellow">Invitation pending</Badge>}
      </span>
      {canRemove && (
        <Button
          size="sm"
          variant="outline"
          aria-label={`${action} ${member.email}`}
          disabled={remove.isPending}
          onClick={() => {
            const question = pending
              ? `Withdraw the invitation for ${member.email}?`
              : `Remove ${member.email} from the team? They lose access to the team's credits and reports at once.`;
            if (window.confirm(question)) remove.mutate(member.id);
          }}
        >
          {pending ? "Withdraw" : "Remove"}
        </Button>
      )}
      {remove.isError && <Alert variant="destructive">{remove.error.message}</Alert>}
    </li>
  );
}

/**
 * The dashboard's team card (docs/PRODUCT.md §6.7): members with their roles and pending
 * invitations; the owner and admins invite by e-mail within the plan's seats and remove members;
 * a member can leave. Every rule (seats, who may remove whom) is checked by the server, whose
 * message is shown.
 */
export function TeamSection({ account }: { account: Account }) {
  const q = useTeam(true);
  const leave = useLeaveTeam();
  const team = q.data;
  // The role's permissions come from domain; the server checks them again on every change.
  const may = (permission: string) => (team ? rolePermissions(team.role).includes(permission) : false);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Team</CardTitle>
        <CardDescription>
          {team ? (account.team ? `You are a ${roleNames[team.role].toLowerCase()} of ${team.ownerEmail}'s team · ${seatsLine(team)}` : seatsLine(team)) : " "}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!team ? (
          q.isError ? <p>Unable to load your team. Please try again.</p> : <Spinner className="size-6" />
        ) : (
          <>
            <ul className="divide-y divide-border" aria-label="Team members">
              <li className="flex flex-wrap items-center gap-2 py-2">
                <span className="break-all">{team.ownerEmail}</span>
                <Badge variant="outline">Owner</Badge>
              </li>
              {team.members.map((m) => (
                <MemberRow
                  key={m.id}
                  member={m}
                  canRemove={may("members:remove") && m.email !== account.email}
                />
              ))}
            </ul>
            {may("members:invite") && <InviteForm />}
            {account.team && (
              <div className="flex flex-col gap-2">
                <Button
                  variant="outline"
                  className="self-start"
                  disabled={leave.isPending}
                  onClick={() => {
                    if (window.confirm(`Leave ${team.ownerEmail}'s team? You lose access to its credits and reports.`)) leave.mutate();
                  }}
                >
                  Leave Team
                </Button>
                {leave.isError && <Alert variant="destructive">{leave.error.message}</Alert>}
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
