import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { copyText } from "../../lib/clipboard";
import { apiRateLimitPerMinute, validateKeyName, type ApiKeyView, type CallbackSecretView, type CreatedApiKey } from "../../lib/domain";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "./api/api-keys";
import { useCallbackSecret, useRotateCallbackSecret } from "./api/callback-secret";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "Nov 28, 2026, 6:40 PM UTC", or "Never" for a key that was never used. */
export function when(at: string | null): string {
  return at ? `${dateFormat.format(new Date(at))} UTC` : "Never";
}

/** The key just created, in full: the only time it is shown (the server keeps only its hash). */
export function NewKeyNotice({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <Alert variant="success" className="flex-col">
      <p>
        Your new key <strong>{created.key.name}</strong>. Copy it now: it will not be shown again.
      </p>
      <Input readOnly value={created.secret} aria-label="New API key" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => void copyText(created.secret).then(setCopied)}>
          Copy key
        </Button>
        <Button size="sm" variant="outline" onClick={onDone}>
          I have copied it
        </Button>
        {copied === true && <span>Copied to the clipboard.</span>}
        {copied === false && <span>Copying failed: select the key and copy it yourself.</span>}
      </div>
    </Alert>
  );
}

/** The form that names and creates a key; the name rule is domain's, checked again by the server. */
function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const problem = submitted ? validateKeyName(name) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (validateKeyName(name)) return;
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (created) => {
          onCreated(created);
          setName("");
          setSubmitted(false);
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Create an API key">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="api-key-name">Key name</Label>
          <Input
            id="api-key-name"
            autoComplete="off"
            placeholder="For example: deploy pipeline"
            value={name}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "api-key-name-error" : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4" />}
          Create Key
        </Button>
      </div>
      <FieldError id="api-key-name-error">{problem ?? undefined}</FieldError>
      {create.isError && <Alert variant="destructive">{create.error.message}</Alert>}
    </form>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  const revoke = useRevokeApiKey();
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <span className="flex flex-col">
        <span className="font-medium break-all">{apiKey.name}</span>
        <span className="text-sm text-muted-foreground">
          <code className="font-mono">{apiKey.prefix}…</code> · Created {when(apiKey.createdAt)} · Last used {when(apiKey.lastUsedAt)}
        </span>
      </span>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Revoke ${apiKey.name}`}
        disabled={revoke.isPending}
        onClick={() => {
          if (window.confirm(`Revoke the key "${apiKey.name}"? Programs using it stop working at once.`)) revoke.mutate(apiKey.id);
        }}
      >
        Revoke
      </Button>
      {revoke.isError && <Alert variant="destructive">{revoke.error.message}</Alert>}
    </li>
  );
}

/** The signing secret once read: copy it, and rotate it when it is the user's own. */
export function CallbackSecretDetails({ view }: { view: CallbackSecretView }) {
  const rotate = useRotateCallbackSecret();
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="flex flex-col gap-2">
      <Input readOnly value={view.secret} aria-label="Callback signing secret" className="font-mono" onFocus={(e) => e.currentTarget.select()} />
      <p className="text-sm text-muted-foreground">
        {view.teamSecret
          ? "Your team owner's secret: it signs the callbacks of your analyses, as the owner's credits pay for them. Only the owner can rotate it."
          : `Made ${when(view.createdAt)}. Rotating it signs every later callback, retries included, with the new secret.`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => void copyText(view.secret).then(setCopied)}>
          Copy secret
        </Button>
        {view.canRotate && (
          <Button
            size="sm"
            variant="outline"
            disabled={rotate.isPending}
            onClick={() => {
              if (window.confirm("Rotate the callback signing secret? Receivers that check the old one will refuse the next callbacks.")) rotate.mutate();
            }}
          >
            Rotate secret
          </Button>
        )}
        {copied === true && <span>Copied to the clipboard.</span>}
        {copied === false && <span>Copying failed: select the secret and copy it yourself.</span>}
      </div>
      {rotate.isError && <Alert variant="destructive">{rotate.error.message}</Alert>}
    </div>
  );
}

/**
 * The secret that signs callbacks (`Sitelens-Signature`). It is read, and so made, only when
 * the user asks to see it.
 */
function CallbackSecretPanel() {
  const [shown, setShown] = useState(false);
  const q = useCallbackSecret(shown);
  return (
    <section aria-labelledby="callback-secret-heading" className="flex flex-col gap-2 border-t border-border pt-4">
      <h3 id="callback-secret-heading" className="font-medium">
        Callback signing secret
      </h3>
      <p className="text-sm text-muted-foreground">
        An analysis submitted with a <code className="font-mono">callbackUrl</code> posts its result there, signed in the{" "}
        <code className="font-mono">Sitelens-Signature</code> header with this secret. See <a href="/api-docs#callbacks">how to verify it</a>.
      </p>
      {!shown ? (
        <div>
          <Button size="sm" variant="outline" onClick={() => setShown(true)}>
            Show signing secret
          </Button>
        </div>
      ) : q.data ? (
        <CallbackSecretDetails view={q.data} />
      ) : q.isError ? (
        <p>Unable to load the signing secret. Please try again.</p>
      ) : (
        <Spinner className="size-6" />
      )}
    </section>
  );
}

/**
 * The dashboard's API keys card: create a named key (shown once, with a copy button), list the
 * keys by name and prefix with when each was created and last used, and revoke one; and the
 * secret that signs callbacks, shown on request, copied and rotated. Keys are personal; a team
 * member's key spends the team's credits, as the member does on the web, and the member's
 * callbacks are signed with the team owner's secret.
 */
export function ApiKeysSection() {
  const q = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const keys = q.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">API keys</CardTitle>
        <CardDescription>
          Run analyses from your own tools with <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> on /api/v1. Each key may make{" "}
          {apiRateLimitPerMinute()} requests a minute; reports spend your credits as they do here.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {created && <NewKeyNotice created={created} onDone={() => setCreated(null)} />}
        {!keys ? (
          q.isError ? <p>Unable to load your API keys. Please try again.</p> : <Spinner className="size-6" />
        ) : keys.length === 0 ? (
          <p className="text-muted-foreground">No API keys yet.</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="API keys">
            {keys.map((k) => (
              <KeyRow key={k.id} apiKey={k} />
            ))}
          </ul>
        )}
        <CreateKeyForm onCreated={setCreated} />
        <CallbackSecretPanel />
      </CardContent>
    </Card>
  );
}
