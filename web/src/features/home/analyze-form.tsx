import { useId, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { AnalyzeFormView } from "./analyze-form-view";
import { earlyInput } from "./early-input";
import { requestAnalysis, AnalyzeError } from "../../api/analyze";
import { checkAddress, productConstants } from "../../lib/domain";
import { toast } from "../../lib/toast";

/**
 * The hero's address form (docs/PRODUCT.md §4.3, §5.1): validated on submit and again on every change after
 * that; while the request runs the input and button are disabled and read 'Analyzing...'.
 */
export function AnalyzeForm() {
  const navigate = useNavigate();
  const id = useId();
  const [value, setValue] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  // The shell this form replaces had the focus: keep it in the field.
  useLayoutEffect(() => {
    if (earlyInput.focused) inputRef.current?.focus();
    earlyInput.focused = false;
  }, []);
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

  return <AnalyzeFormView inputId={`${id}-url`} value={value} onChange={onChange} onSubmit={onSubmit} error={error} pending={pending} inputRef={inputRef} />;
}
