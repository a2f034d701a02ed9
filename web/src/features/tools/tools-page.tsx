import { ServerPage } from "../server-page/server-page";
import { PricingCalculator } from "../../components/pricing-calculator";
import { SnippetPreview } from "./snippet-preview";
import { RobotsTester } from "./robots-tester";

/**
 * /resources/tools: the server's text about the tools, then the tools themselves, each running
 * the rules of crates/domain in WebAssembly (no request to our server).
 */
export function ToolsPage() {
  return (
    <ServerPage>
      <div className="mx-auto max-w-3xl space-y-12 px-4 pb-16 sm:px-6">
        <SnippetPreview />
        <RobotsTester />
        <section aria-labelledby="calculator-tool" className="rounded-xl border border-border bg-card p-6 shadow-sm">
          <h2 id="calculator-tool" className="text-2xl font-bold tracking-tight">
            Credit calculator
          </h2>
          <div className="mt-6">
            <PricingCalculator />
          </div>
        </section>
      </div>
    </ServerPage>
  );
}
