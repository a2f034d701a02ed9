import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import { Button } from "./ui/button";
import {
  calculate,
  calculatorDefaults,
  creditPacks,
  creditsCheckoutPath,
  formatDollars,
  packageCheckoutPath,
  planCheckoutPath,
  plans,
  validateCalculator,
  type CalculatorInput,
} from "../lib/domain";

const fields: { key: keyof CalculatorInput; label: string; min: number }[] = [
  { key: "basic", label: "Basic reports a month", min: 0 },
  { key: "standard", label: "Standard reports a month", min: 0 },
  { key: "premium", label: "Premium reports a month", min: 0 },
  { key: "team", label: "Team members", min: 1 },
];

const planNames: Record<string, string> = {
  "pay-as-you-go": "Pay as you go",
  business: "Business",
  agency: "Agency",
};

/** The pricing calculator: every number on it comes from the domain rules in WebAssembly. */
export function PricingCalculator() {
  const [input, setInput] = useState<CalculatorInput>(() => calculatorDefaults());
  const errors = useMemo(() => validateCalculator(input), [input]);
  const result = useMemo(() => calculate(input), [input]);
  const pack = useMemo(() => creditPacks().find((p) => p.packageId === result.pack), [result.pack]);
  const plan = useMemo(() => plans().find((p) => p.id === `${result.plan}-plan`), [result.plan]);
  const id = useId();

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl border border-border bg-card p-6 shadow-sm sm:p-8">
      <h2 id={`${id}-title`} className="text-2xl font-semibold">
        Pricing calculator
      </h2>
      <p className="mt-1 text-muted-foreground">Tell us how many reports you need each month.</p>
      <form className="mt-6 grid gap-4 sm:grid-cols-2" onSubmit={(e) => e.preventDefault()}>
        {fields.map((f) => {
          const error = errors.find((e) => e.field === f.key);
          return (
            <label key={f.key} className="flex flex-col gap-1 text-sm font-medium">
              {f.label}
              <input
                type="number"
                min={f.min}
                inputMode="numeric"
                value={input[f.key]}
                aria-invalid={error ? true : undefined}
                onChange={(e) => setInput({ ...input, [f.key]: Math.trunc(Number(e.target.value) || 0) })}
                className="rounded-lg border border-border bg-input px-3 py-2 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              />
              {error && <span className="text-sm text-red-700 dark:text-red-400">{error.message}</span>}
            </label>
          );
        })}
      </form>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-muted p-4">
          <dt className="text-sm text-muted-foreground">Credits a month</dt>
          <dd className="text-2xl font-semibold">{result.credits}</dd>
        </div>
        <div className="rounded-xl bg-muted p-4">
          <dt className="text-sm text-muted-foreground">Time saved</dt>
          <dd className="text-2xl font-semibold">{result.hoursSaved} hours</dd>
        </div>
        <div className="rounded-xl bg-muted p-4">
          <dt className="text-sm text-muted-foreground">Recommended</dt>
          <dd className="text-2xl font-semibold text-link">{planNames[result.plan]}</dd>
        </div>
      </dl>
      <p className="mt-4">
        {plan
          ? `${plan.name}: ${formatDollars(result.planMonthlyCost)} a month${result.extraSeats > 0 ? ` including ${result.extraSeats} extra seat${result.extraSeats > 1 ? "s" : ""}` : ""}.`
          : `Buy ${result.payAsYouGo.credits} credit${result.payAsYouGo.credits === 1 ? "" : "s"} for ${formatDollars(result.payAsYouGo.price)}.`}{" "}
        {result.monthlySavings > 0 && `You save ${formatDollars(result.monthlySavings)} a month against pay-as-you-go.`}
        {pack && ` Best pack for this volume: ${pack.name} (${pack.credits} credits, ${formatDollars(pack.price)}).`}
      </p>
      <p className="mt-4 flex flex-wrap gap-3">
        <Button asChild>
          <Link to={plan ? planCheckoutPath(plan.id, "monthly", result.extraSeats) : creditsCheckoutPath(result.payAsYouGo.credits)}>
            {plan ? `Choose ${plan.name}` : `Buy ${result.payAsYouGo.credits} credit${result.payAsYouGo.credits === 1 ? "" : "s"}`}
            <span className="sr-only"> (recommended)</span>
          </Link>
        </Button>
        {pack && (
          <Button asChild variant="outline">
            <Link to={packageCheckoutPath(pack.packageId)}>Buy the {pack.name}</Link>
          </Button>
        )}
      </p>
    </section>
  );
}
