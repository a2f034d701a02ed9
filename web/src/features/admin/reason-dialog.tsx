import { useState, type ReactNode } from "react";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../../components/ui/dialog";
import { Textarea } from "../../components/ui/input";
import { Label } from "../../components/ui/label";

/**
 * The confirmation of an admin change: what it does, any fields of its own (`children`), and the
 * reason the server requires (it checks the reason and answers with the message shown here).
 * `onConfirm` resolves when the change is made, or throws the server's error.
 */
export function ReasonDialog({
  trigger,
  title,
  description,
  confirm,
  destructive = false,
  disabled = false,
  children,
  onConfirm,
}: {
  trigger: string;
  title: string;
  description: string;
  confirm: string;
  destructive?: boolean;
  disabled?: boolean;
  children?: ReactNode;
  onConfirm: (reason: string) => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `reason-${trigger.replace(/\W+/g, "-").toLowerCase()}`;
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason);
      setOpen(false);
      setReason("");
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant={destructive ? "destructive" : "outline"} size="sm" disabled={disabled} onClick={() => setOpen(true)}>
        {trigger}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setError(null);
        }}
      >
        <DialogContent>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
          <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
            {children}
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={id}>Reason (recorded in the audit log)</Label>
              <Textarea id={id} value={reason} onChange={(e) => setReason(e.target.value)} required rows={2} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
            </div>
            {error && (
              <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
                {error}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" variant={destructive ? "destructive" : "default"} disabled={busy}>
                {busy ? "Working…" : confirm}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
