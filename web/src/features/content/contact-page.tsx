import { useId, useState, type FormEvent } from "react";
import { CheckCircle2, Mail, MessageSquare } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Input, Textarea } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { Alert } from "../../components/ui/alert";
import { PageMeta } from "../../components/seo/page-meta";
import { useSendContactMessage } from "../../api/contact";
import { validateContact, type ContactForm } from "../../lib/domain";
import { toast } from "../../lib/toast";
import { routeMeta } from "../../lib/route-meta";

type Errors = Partial<Record<keyof ContactForm, string>>;

/** The contact form's errors by field, from the domain rule the server applies too (docs/PRODUCT.md §5.12). */
function validate(m: ContactForm): Errors {
  const e: Errors = {};
  for (const { field, message } of validateContact(m)) e[field as keyof ContactForm] = message;
  return e;
}

/** /contact: a form that posts to /api/contact, where the server stores the message. */
export function ContactPage() {
  const id = useId();
  const [m, setM] = useState<ContactForm>({ name: "", email: "", subject: "", message: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const send = useSendContactMessage();

  const update = (patch: Partial<ContactForm>) => {
    const next = { ...m, ...patch };
    setM(next);
    if (submitted) setErrors(validate(next));
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = validate(m);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    send.mutate(m, {
      onError: () => toast({ title: "Form Error", description: "There was an error processing your request. Please try again.", variant: "destructive" }),
    });
  };

  const field = (name: keyof ContactForm, label: string, props: Record<string, string> = {}) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      {name === "message" ? (
        <Textarea id={`${id}-${name}`} rows={6} value={m[name]} onChange={(e) => update({ [name]: e.target.value })} aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `${id}-${name}-error` : undefined} />
      ) : (
        <Input id={`${id}-${name}`} value={m[name]} onChange={(e) => update({ [name]: e.target.value })} aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `${id}-${name}-error` : undefined} {...props} />
      )}
      <FieldError id={`${id}-${name}-error`}>{errors[name]}</FieldError>
    </div>
  );

  return (
    <div className="mx-auto grid max-w-6xl gap-12 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_1.3fr]">
      <PageMeta {...routeMeta("/contact")} />
      <div>
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Contact us</h1>
        <p className="mt-4 text-lg text-muted-foreground">Questions about a report, a plan or white-label for your agency? Send us a message and we will reply by e-mail, usually within one working day.</p>
        <ul className="mt-8 space-y-4">
          <li className="flex gap-3"><MessageSquare className="size-5 shrink-0 text-link" aria-hidden="true" /><span><strong>Support:</strong> problems with an analysis or a download.</span></li>
          <li className="flex gap-3"><Mail className="size-5 shrink-0 text-link" aria-hidden="true" /><span><strong>Sales:</strong> Enterprise, agency plans and self-hosting.</span></li>
        </ul>
      </div>
      <div className="rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">
        {send.isSuccess ? (
          <Alert variant="success">
            <CheckCircle2 aria-hidden="true" />
            <div>
              <p className="font-semibold">Message sent</p>
              <p>Thank you, {m.name.trim()}. We have your message and will reply to {m.email.trim()}.</p>
            </div>
          </Alert>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              {field("name", "Name", { autoComplete: "name" })}
              {field("email", "Email", { type: "email", autoComplete: "email" })}
            </div>
            {field("subject", "Subject")}
            {field("message", "Message")}
            <Button type="submit" size="lg" disabled={send.isPending}>
              {send.isPending ? <><Spinner /> Sending...</> : "Send message"}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
