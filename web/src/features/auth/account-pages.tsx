import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { PageMeta } from "../../components/seo/page-meta";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import {
  safeReturnPath,
  validateEmailChange,
  validateNewPassword,
  validatePasswordChange,
  validateRegistration,
  validateSignIn,
  isValidEmail,
  type Account,
} from "../../lib/domain";
import { accountRequest, useRequireSignIn, useSession } from "../../lib/session";
import { AccountForm } from "./account-form";
import { ProviderSignIn } from "./provider-sign-in";

/** Where to go after signing in: the `redirect_url` parameter when it stays on our origin. */
function useReturnPath(): string {
  const [params] = useSearchParams();
  return safeReturnPath(params.get("redirect_url") ?? "", window.location.origin);
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="px-4 py-12">
      <PageMeta title={title} description="Your Sitelens account." noindex />
      {children}
    </div>
  );
}

/** After a session starts: the cached account is replaced and the visitor goes back. */
function useSignedIn() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const to = useReturnPath();
  return (account: Account) => {
    qc.setQueryData(["account"], account);
    void navigate(to, { replace: true });
  };
}

export function SignInPage() {
  const signedIn = useSignedIn();
  const returnTo = useReturnPath();
  const [params] = useSearchParams();
  const query = new URLSearchParams(params);
  // A failed sign-in through the provider comes back here with its message.
  const problem = params.get("error");
  query.delete("error");
  const rest = query.toString();
  return (
    <Shell title="Sign in">
      {problem && (
        <Alert variant="destructive" className="mx-auto mb-4 w-full max-w-md">
          {problem}
        </Alert>
      )}
      <AccountForm
        title="Sign in to Sitelens"
        fields={[
          { name: "email", label: "Email", type: "email", autoComplete: "email" },
          { name: "password", label: "Password", type: "password", autoComplete: "current-password" },
        ]}
        submitLabel="Sign In"
        validate={(v) => validateSignIn({ email: (v.email ?? ""), password: (v.password ?? "") })}
        onSubmit={async (v) => {
          const { account } = await accountRequest<{ account: Account }>("POST", "/api/accounts/sign-in", {
            email: (v.email ?? "").trim(),
            password: (v.password ?? ""),
          });
          signedIn(account);
        }}
        footer={
          <div className="flex flex-col gap-1">
            <Link className="underline" to="/accounts/forgot-password">
              Forgot your password?
            </Link>
            <span>
              New to Sitelens?{" "}
              <Link className="underline" to={`/accounts/sign-up${rest ? `?${rest}` : ""}`}>
                Create an account
              </Link>
            </span>
          </div>
        }
      />
      <ProviderSignIn returnTo={returnTo} />
    </Shell>
  );
}

export function SignUpPage() {
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const query = params.toString();
  return (
    <Shell title="Create your account">
      <AccountForm
        title="Create your Sitelens account"
        description="We will send you a link to confirm your email address."
        fields={[
          { name: "firstName", label: "First name", autoComplete: "given-name" },
          { name: "lastName", label: "Last name", autoComplete: "family-name" },
          { name: "email", label: "Email", type: "email", autoComplete: "email" },
          { name: "username", label: "Username", autoComplete: "username" },
          { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
        ]}
        submitLabel="Create Account"
        validate={(v) =>
          validateRegistration({ firstName: (v.firstName ?? ""), lastName: (v.lastName ?? ""), email: (v.email ?? ""), username: (v.username ?? ""), password: (v.password ?? "") })
        }
        onSubmit={async (v) => {
          const { account } = await accountRequest<{ account: Account }>("POST", "/api/accounts/sign-up", { ...v, email: (v.email ?? "").trim() });
          signedIn(account);
        }}
        footer={
          <span>
            Already have an account?{" "}
            <Link className="underline" to={`/accounts/sign-in${query ? `?${query}` : ""}`}>
              Sign in
            </Link>
          </span>
        }
      />
    </Shell>
  );
}

export function ForgotPasswordPage() {
  return (
    <Shell title="Forgot your password">
      <AccountForm
        title="Reset your password"
        description="Enter your email address and we will send you a link to choose a new password."
        fields={[{ name: "email", label: "Email", type: "email", autoComplete: "email" }]}
        submitLabel="Send Reset Link"
        validate={(v) => (isValidEmail((v.email ?? "")) ? [] : [{ field: "email", message: "Please enter a valid email address" }])}
        onSubmit={async (v) => (await accountRequest<{ message: string }>("POST", "/api/accounts/forgot-password", { email: (v.email ?? "").trim() })).message}
      />
    </Shell>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  return (
    <Shell title="Choose a new password">
      <AccountForm
        title="Choose a new password"
        fields={[{ name: "password", label: "New password", type: "password", autoComplete: "new-password" }]}
        submitLabel="Change Password"
        validate={(v) => validateNewPassword("password", (v.password ?? ""), "", "")}
        onSubmit={async (v) => (await accountRequest<{ message: string }>("POST", "/api/accounts/reset-password", { token, password: (v.password ?? "") })).message}
        footer={
          <Link className="underline" to="/accounts/sign-in">
            Sign in
          </Link>
        }
      />
    </Shell>
  );
}

/** Follows a one-time link (verification, team invitation) once, and says how it went. */
function LinkPage({ title, path, needsSession }: { title: string; path: string; needsSession: boolean }) {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const session = useSession();
  const qc = useQueryClient();
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  // Wait for the session either way: a signed-in browser must send its CSRF token, which
  // arrives with the account.
  const ready = !session.loading && (!needsSession || session.signedIn);
  useEffect(() => {
    if (!ready || state) return;
    accountRequest<{ message: string }>("POST", path, { token })
      .then((r) => {
        setState({ ok: true, text: r.message });
        void qc.invalidateQueries();
      })
      .catch((e: unknown) => setState({ ok: false, text: e instanceof Error ? e.message : String(e) }));
  }, [ready, state, path, token, qc]);
  const here = `${window.location.pathname}${window.location.search}`;
  return (
    <Shell title={title}>
      <Card className="mx-auto w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-semibold">{title}</h1>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {!ready && !session.loading ? (
            <>
              <p>Sign in or create an account with the address the invitation was sent to, then this page continues.</p>
              <Button asChild>
                <Link to={`/accounts/sign-in?redirect_url=${encodeURIComponent(here)}`}>Sign In</Link>
              </Button>
            </>
          ) : state ? (
            <Alert variant={state.ok ? "success" : "destructive"}>{state.text}</Alert>
          ) : (
            <p role="status">Checking your link…</p>
          )}
          {state?.ok && (
            <Button asChild>
              <Link to="/dashboard">Go to Dashboard</Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </Shell>
  );
}

export function VerifyEmailPage() {
  return <LinkPage title="Confirm your email address" path="/api/accounts/verify-email" needsSession={false} />;
}

export function JoinTeamPage() {
  return <LinkPage title="Join a team" path="/api/team/join" needsSession />;
}

/** Account settings: change password or address, sign out everywhere, download my data, delete. */
export function AccountSettingsPage() {
  const { account } = useRequireSignIn("/accounts/settings");
  const qc = useQueryClient();
  const navigate = useNavigate();
  if (!account) return null;
  return (
    <Shell title="Account settings">
      <div className="mx-auto flex max-w-md flex-col gap-8">
        {!account.emailVerified && (
          <Alert>
            Your email address is not confirmed yet.{" "}
            <button
              type="button"
              className="underline"
              onClick={() => void accountRequest("POST", "/api/accounts/resend-verification", {}).catch(() => undefined)}
            >
              Send the link again
            </button>
          </Alert>
        )}
        <AccountForm
          title="Change password"
          fields={[
            { name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password" },
            { name: "newPassword", label: "New password", type: "password", autoComplete: "new-password" },
          ]}
          submitLabel="Change Password"
          validate={(v) => validatePasswordChange({ currentPassword: (v.currentPassword ?? ""), newPassword: (v.newPassword ?? "") }, account.email, account.username)}
          onSubmit={async (v) => {
            const r = await accountRequest<{ account: Account }>("POST", "/api/account/password", v);
            qc.setQueryData(["account"], r.account);
            return "Your password has been changed. Other devices are signed out.";
          }}
        />
        <AccountForm
          title="Change email address"
          fields={[
            { name: "email", label: "New email", type: "email", autoComplete: "email" },
            { name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password" },
          ]}
          submitLabel="Change Email"
          validate={(v) => validateEmailChange({ email: (v.email ?? ""), currentPassword: (v.currentPassword ?? "") })}
          onSubmit={async (v) => {
            const r = await accountRequest<{ message: string }>("POST", "/api/account/email", { ...v, email: (v.email ?? "").trim() });
            void qc.invalidateQueries({ queryKey: ["account"] });
            return r.message;
          }}
        />
        <Card>
          <CardHeader>
            <CardTitle as="h2">Your data</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Button asChild variant="outline">
              <a href="/api/account/export" download>
                Download My Data
              </a>
            </Button>
            <Button
              variant="outline"
              onClick={() =>
                void accountRequest("POST", "/api/accounts/sign-out-everywhere", {}).then(() => {
                  qc.setQueryData(["account"], null);
                  void navigate("/");
                })
              }
            >
              Sign Out Everywhere
            </Button>
          </CardContent>
        </Card>
        <AccountForm
          title="Delete account"
          description="Deletes your account, your reports and your personal data. This cannot be undone."
          fields={account.hasPassword ? [{ name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password" }] : []}
          submitLabel="Delete My Account"
          validate={(v) => (account.hasPassword && !(v.currentPassword ?? "") ? [{ field: "currentPassword", message: "Please enter your current password" }] : [])}
          onSubmit={async (v) => {
            await accountRequest("POST", "/api/account/delete", { currentPassword: v.currentPassword ?? "" });
            qc.setQueryData(["account"], null);
            void navigate("/");
          }}
        />
      </div>
    </Shell>
  );
}
