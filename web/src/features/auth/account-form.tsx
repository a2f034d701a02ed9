import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import type { FieldError as FieldProblem } from "../../lib/domain";

export type Field = { name: string; label: string; type?: string; autoComplete?: string };

/**
 * One accounts form: the fields, the domain rule that checks them on submit and again on every
 * change once submitted (docs/PRODUCT.md §9.12), and the server call. The server answers with
 * the same messages; a refusal shows above the button.
 */
export function AccountForm({
  title,
  description,
  fields,
  submitLabel,
  validate,
  onSubmit,
  footer,
  initial,
}: {
  title: string;
  description?: string;
  fields: Field[];
  submitLabel: string;
  validate: (values: Record<string, string>) => FieldProblem[];
  onSubmit: (values: Record<string, string>) => Promise<string | void>;
  footer?: React.ReactNode;
  initial?: Record<string, string>;
}) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, initial?.[f.name] ?? ""])));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const problems = submitted ? validate(values) : [];
  const problemOf = (name: string) => problems.find((p) => p.field === name)?.message;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    setError(null);
    if (validate(values).length > 0) return;
    setBusy(true);
    try {
      const message = await onSubmit(values);
      if (message) setDone(message);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>
        {done ? (
          <Alert variant="success">{done}</Alert>
        ) : (
          <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
            {fields.map((f) => (
              <div key={f.name} className="flex flex-col gap-1.5">
                <Label htmlFor={f.name}>{f.label}</Label>
                <Input
                  id={f.name}
                  name={f.name}
                  type={f.type ?? "text"}
                  autoComplete={f.autoComplete}
                  value={values[f.name]}
                  aria-invalid={problemOf(f.name) ? true : undefined}
                  aria-describedby={problemOf(f.name) ? `${f.name}-error` : undefined}
                  onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
                />
                <FieldError id={`${f.name}-error`}>{problemOf(f.name)}</FieldError>
              </div>
            ))}
            {error && <Alert variant="destructive">{error}</Alert>}
            <Button type="submit" disabled={busy}>
              {busy && <Spinner className="size-4" />}
              {submitLabel}
            </Button>
          </form>
        )}
        {footer && <div className="mt-4 text-sm text-muted-foreground">{footer}</div>}
      </CardContent>
    </Card>
  );
}
