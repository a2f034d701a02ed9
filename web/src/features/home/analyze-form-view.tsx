import type { FormEvent, Ref } from "react";
import { LoaderCircle, Search } from "lucide-react";

export type AnalyzeFormViewProps = {
  inputId: string;
  value: string;
  onChange: (v: string) => void;
  onSubmit: (e: FormEvent) => void;
  error?: string;
  pending?: boolean;
  readOnly?: boolean;
  onFocusChange?: (focused: boolean) => void;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * The hero's address form, markup only (no rules, no router), shared by the live form and the
 * early shell so the two look exactly alike.
 */
export function AnalyzeFormView({ inputId, value, onChange, onSubmit, error, pending = false, readOnly, onFocusChange, inputRef }: AnalyzeFormViewProps) {
  return (
    <form id="analyze" onSubmit={onSubmit} noValidate className="mx-auto w-full max-w-2xl scroll-mt-24">
      <label htmlFor={inputId} className="sr-only">
        Website address
      </label>
      <div className="flex flex-col gap-3 rounded-2xl bg-white/10 p-2 ring-1 ring-white/25 backdrop-blur sm:flex-row">
        <div className="relative flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            id={inputId}
            ref={inputRef}
            readOnly={readOnly}
            onFocus={() => onFocusChange?.(true)}
            onBlur={() => onFocusChange?.(false)}
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
            aria-describedby={error ? `${inputId}-error` : undefined}
            className="flex h-12 w-full min-w-0 rounded-lg border-0 bg-white py-2 pr-3 pl-11 text-base text-slate-900 placeholder:text-slate-500 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
          />
        </div>
        <button
          type="submit"
          disabled={pending}
          className="inline-flex h-12 items-center justify-center gap-2 rounded-lg bg-slate-900 px-6 text-base font-semibold whitespace-nowrap text-white shadow-lg transition-colors hover:bg-slate-800 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none disabled:pointer-events-none disabled:opacity-60 dark:bg-slate-950"
        >
          {pending ? (
            <>
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> Analyzing...
            </>
          ) : (
            "Analyze"
          )}
        </button>
      </div>
      <p id={`${inputId}-error`} role={error ? "alert" : undefined} className="mt-2 min-h-6 text-left text-sm font-semibold text-amber-200">
        {error}
      </p>
    </form>
  );
}
