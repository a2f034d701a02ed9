import { useId, useState, type FormEvent } from "react";
import { Download } from "lucide-react";
import { validateDownload, type DownloadRequest, type FieldError as FieldErr } from "../../lib/domain";
import { Button } from "../../components/ui/button";
import { Checkbox } from "../../components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "../../components/ui/dialog";
import { Input } from "../../components/ui/input";
import { FieldError, Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../lib/toast";
import { useDownloadBasicReport } from "./api/download-report";

/**
 * The Download Report dialog of a free report: validated by the domain rules, then a PDF download.
 * On a branded report the consent names the agency.
 */
export function DownloadDialog({ reportId, brandName }: { reportId: string; brandName?: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<DownloadRequest>({ reportId, email: "", firstName: "", lastName: "", agreeToEmails: false });
  const [errors, setErrors] = useState<FieldErr[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const download = useDownloadBasicReport();

  const update = (patch: Partial<DownloadRequest>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (submitted) setErrors(validateDownload(next));
  };
  const err = (field: string) => errors.find((e) => e.field === field)?.message;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = validateDownload(form);
    setErrors(found);
    if (found.length > 0) return;
    download.mutate(form, {
      onSuccess: () => {
        toast({ title: "Download Started!", description: "Your report is downloading.", variant: "success" });
        setOpen(false);
      },
      onError: () => toast({ title: "Download Error", description: "Failed to download your report. Please try again.", variant: "destructive" }),
    });
  };

  const field = (name: "firstName" | "lastName" | "email", label: string, type = "text", autoComplete?: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <Input
        id={`${id}-${name}`}
        type={type}
        autoComplete={autoComplete}
        value={form[name]}
        onChange={(e) => update({ [name]: e.target.value })}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `${id}-${name}-error` : undefined}
      />
      <FieldError id={`${id}-${name}-error`}>{err(name)}</FieldError>
    </div>
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Download aria-hidden="true" /> Download Report
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Download Report</DialogTitle>
        <DialogDescription>Get this report as a PDF. We will also send a copy to your inbox.</DialogDescription>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            {field("firstName", "First name", "text", "given-name")}
            {field("lastName", "Last name", "text", "family-name")}
          </div>
          {field("email", "Email", "email", "email")}
          <div className="grid gap-1.5">
            <div className="flex items-start gap-3">
              <Checkbox
                id={`${id}-agree`}
                checked={form.agreeToEmails}
                onCheckedChange={(v) => update({ agreeToEmails: v === true })}
                aria-invalid={err("agreeToEmails") ? true : undefined}
                aria-describedby={err("agreeToEmails") ? `${id}-agree-error` : undefined}
              />
              <Label htmlFor={`${id}-agree`} className="font-normal leading-snug">
                I agree to receive emails about my report and website tips from {brandName ?? "Sitelens"}.
              </Label>
            </div>
            <FieldError id={`${id}-agree-error`}>{err("agreeToEmails")}</FieldError>
          </div>
          <Button type="submit" disabled={download.isPending}>
            {download.isPending ? <><Spinner /> Preparing PDF...</> : "Download PDF"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
