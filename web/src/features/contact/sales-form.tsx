import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button";
import { Input, Textarea } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { useSendSalesMessage, type SalesKind } from "../../api/contact";
import type { Choice, FieldError as DomainFieldError } from "../../lib/domain";
import { toast } from "../../lib/toast";
import { cn } from "../../lib/cn";

/** One field of a sales form: a text input, a text area or a choice from the domain's options. */
export type FieldSpec<F> = {
  name: keyof F & string;
  label: string;
  type?: "text" | "email" | "tel" | "url" | "textarea" | "select";
  options?: Choice[];
  optional?: boolean;
  autoComplete?: string;
  /** Takes the full width of the form (text areas always do). */
  wide?: boolean;
};

/**
 * A sales form (enterprise, agency, partner): the fields of `fields`, checked with the domain
 * rule the server applies too; after the server accepted it the visitor lands on
 * /thank-you?from=<kind>.
 */
export function SalesForm<F extends Record<string, string>>({
  kind,
  initial,
  fields,
  validate,
  submitLabel,
}: {
  kind: SalesKind;
  initial: F;
  fields: FieldSpec<F>[];
  validate: (form: F) => DomainFieldError[];
  submitLabel: string;
}) {
  const id = useId();
  const navigate = useNavigate();
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof F, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const send = useSendSalesMessage();

  const check = (f: F) => {
    const found: Partial<Record<keyof F, string>> = {};
    for (const { field, message } of validate(f)) found[field as keyof F] ??= message;
    return found;
  };
  const update = (name: keyof F, value: string) => {
    const next = { ...form, [name]: value };
    setForm(next);
    if (submitted) setErrors(check(next));
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = check(form);
    setErrors(found);
    const first = fields.find((f) => found[f.name]);
    if (first) {
      document.getElementById(`${id}-${first.name}`)?.focus();
      return;
    }
    send.mutate(
      { kind, form },
      {
        onSuccess: () => void navigate(`/thank-you?from=${kind}`),
        onError: (err) =>
          toast({ title: "Your message was not sent", description: err instanceof Error ? err.message : "Please try again.", variant: "destructive" }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2">
      {fields.map((f) => {
        const fid = `${id}-${f.name}`;
        const error = errors[f.name];
        const common = {
          id: fid,
          value: form[f.name],
          "aria-invalid": error ? true : undefined,
          "aria-describedby": error ? `${fid}-error` : undefined,
          "aria-required": f.optional ? undefined : true,
        };
        return (
          <div key={f.name} className={cn("grid content-start gap-1.5", (f.wide || f.type === "textarea") && "sm:col-span-2")}>
            <Label htmlFor={fid}>
              {f.label}
              {f.optional && <span className="font-normal text-muted-foreground"> (optional)</span>}
            </Label>
            {f.type === "textarea" ? (
              <Textarea rows={6} {...common} onChange={(e) => update(f.name, e.target.value)} />
            ) : f.type === "select" ? (
              <select
                {...common}
                onChange={(e) => update(f.name, e.target.value)}
                className="flex h-10 w-full rounded-lg border border-border bg-input px-3 py-2 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-red-500"
              >
                <option value="">Choose…</option>
                {f.options?.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : (
              <Input type={f.type ?? "text"} autoComplete={f.autoComplete} {...common} onChange={(e) => update(f.name, e.target.value)} />
            )}
            <FieldError id={`${fid}-error`}>{error}</FieldError>
          </div>
        );
      })}
      <Button type="submit" size="lg" className="sm:col-span-2" disabled={send.isPending}>
        {send.isPending ? (
          <>
            <Spinner /> Sending...
          </>
        ) : (
          submitLabel
        )}
      </Button>
    </form>
  );
}
