import { useId, useState, type FormEvent } from "react";
import { Mail } from "lucide-react";
import { validateSendReport, type FieldError as FieldErr, type SendReportRequest } from "../../lib/domain";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { useSendReport } from "./api/send-report";

/** The dialog's form as the user fills it (the message is optional: empty is sent as none). */
export type SendForm = { email: string; firstName: string; message: string };

export const emptySendForm: SendForm = { email: "", firstName: "", message: "" };

/** The request the form sends: the message left out when blank. */
export function sendRequest(form: SendForm): SendReportRequest {
  return form.message.trim() === "" ? { email: form.email, firstName: form.firstName } : { ...form };
}

/** The form's field errors, by domain's rule (the server asks the same one). */
export function sendErrors(form: SendForm): FieldErr[] {
  return validateSendReport(sendRequest(form));
}

type FormProps = {
  id: string;
  form: SendForm;
  errors: FieldErr[];
  pending: boolean;
  /** The server's refusal (mail not configured, the hourly allowance), shown above the button. */
  failure: string | null;
  /** The server's confirmation; the form is done. */
  sent: string | null;
  onChange: (patch: Partial<SendForm>) => void;
  onSubmit: (e: FormEvent) => void;
};

/** The fields, their errors and the outcome; the dialog around it holds the state. */
export function SendReportForm({ id, form, errors, pending, failure, sent, onChange, onSubmit }: FormProps) {
  const err = (field: string) => errors.find((e) => e.field === field)?.message;
  if (sent) {
    return (
      <Alert>
        <p>{sent}</p>
      </Alert>
    );
  }
  const input = (name: "email" | "firstName", label: string, type: string, autoComplete: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <Input
        id={`${id}-${name}`}
        type={type}
        autoComplete={autoComplete}
        value={form[name]}
        onChange={(e) => onChange({ [name]: e.target.value })}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `${id}-${name}-error` : undefined}
      />
      <FieldError id={`${id}-${name}-error`}>{err(name)}</FieldError>
    </div>
  );
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {input("email", "Client's email", "email", "off")}
      {input("firstName", "Client's first name", "text", "off")}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-message`}>Message (optional)</Label>
        <textarea
          id={`${id}-message`}
          rows={4}
          value={form.message}
          onChange={(e) => onChange({ message: e.target.value })}
          aria-invalid={err("message") ? true : undefined}
          aria-describedby={err("message") ? `${id}-message-error` : undefined}
          className="min-h-24 w-full rounded-md border border-input bg-background px-3 py-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
        <FieldError id={`${id}-message-error`}>{err("message")}</FieldError>
      </div>
      {failure && (
        <Alert variant="destructive">
          <p>{failure}</p>
        </Alert>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? <><Spinner /> Sending...</> : "Send Report"}
      </Button>
    </form>
  );
}

/** "Send to client" on a report of the dashboard: the client's address, first name and a message, mailed by the server with the PDF. */
export function SendReportDialog({ reportId, site }: { reportId: string; site: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<SendForm>(emptySendForm);
  const [errors, setErrors] = useState<FieldErr[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const send = useSendReport(reportId);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setForm(emptySendForm);
      setErrors([]);
      setSubmitted(false);
      send.reset();
    }
  };
  const onChange = (patch: Partial<SendForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (submitted) setErrors(sendErrors(next));
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = sendErrors(form);
    setErrors(found);
    if (found.length === 0) send.mutate(sendRequest(form));
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          <Mail aria-hidden="true" /> Send to client
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Send to client</DialogTitle>
        <DialogDescription className="break-words">Email the report of {site} with its PDF to your client.</DialogDescription>
        <SendReportForm
          id={id}
          form={form}
          errors={errors}
          pending={send.isPending}
          failure={send.isError ? send.error.message : null}
          sent={send.data?.message ?? null}
          onChange={onChange}
          onSubmit={onSubmit}
        />
      </DialogContent>
    </Dialog>
  );
}
