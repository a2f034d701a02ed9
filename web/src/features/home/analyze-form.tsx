import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { Search } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Spinner } from "../../components/ui/spinner";
import { requestAnalysis, AnalyzeError } from "../../api/analyze";
import { checkAddress, productConstants } from "../../lib/domain";
import { toast } from "../../lib/toast";

/**
 * The hero's address form (SPEC.md §4, §5): validated on submit and again on every change after
 * that; while the request runs the input and button are disabled and read 'Analyzing...'.
 */
export function AnalyzeForm() {
  const navigate = useNavigate();
  const id = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);

  const onChange = (v: string) => {
    setValue(v);
    if (submitted) setError(checkAddress(v).error);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const check = checkAddress(value);
    setError(check.error);
    if (!value.trim()) {
      const c = productConstants();
      toast({ title: c.invalidUrlToastTitle, description: c.invalidUrlToastText, variant: "destructive" });
      return;
    }
    if (!check.url) return;
    setPending(true);
    try {
      const outcome = await requestAnalysis(check.url);
      const q = `url=${encodeURIComponent(check.url)}`;
      if (outcome.kind === "result") navigate(`/results?id=${encodeURIComponent(outcome.id)}&${q}`);
      else navigate(`/analyzing?${q}`, { state: { analysisId: outcome.analysisId } });
    } catch (err) {
      const message = err instanceof AnalyzeError ? err.message : "Failed to analyze website. Please try again.";
      toast({ title: "Analysis Failed", description: message, variant: "destructive" });
      setPending(false);
    }
  };

  return (
    <form id="analyze" onSubmit={onSubmit} noValidate className="mx-auto w-full max-w-2xl scroll-mt-24">
      <label htmlFor={`${id}-url`} className="sr-only">
        Website address
      </label>
      <div className="flex flex-col gap-3 rounded-2xl bg-white/10 p-2 ring-1 ring-white/25 backdrop-blur sm:flex-row">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input
            id={`${id}-url`}
            name="url"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="yourwebsite.com"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            disabled={pending}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="h-12 border-0 bg-white pl-11 text-slate-900 placeholder:text-slate-500 dark:bg-white dark:text-slate-900"
          />
        </div>
        <Button type="submit" size="lg" variant="hero" disabled={pending} className="h-12 bg-slate-900 text-white hover:bg-slate-800 dark:bg-slate-950">
          {pending ? (
            <>
              <Spinner /> Analyzing...
            </>
          ) : (
            "Analyze"
          )}
        </Button>
      </div>
      <p id={`${id}-error`} role={error ? "alert" : undefined} className="mt-2 min-h-6 text-left text-sm font-semibold text-amber-200">
        {error}
      </p>
    </form>
  );
}
